// REFERENCE: mlir22
// vector.transfer_read with the default minor-identity map: 1-D and 2-D reads from a 3x4
// memref at several offsets, reading a 2-D vector from the trailing dims of a 3-D memref,
// in_bounds = [true] and [true, true], an i16 and an f64 memref, and a dynamic-shaped memref
// via memref.cast. A helper fills memrefs with m[i, j] = 10*i + j.
func.func @fill(%m: memref<3x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c10 = arith.constant 10 : index
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %a = arith.muli %i, %c10 : index
      %b = arith.addi %a, %j : index
      %bi = arith.index_cast %b : index to i32
      %f = arith.sitofp %bi : i32 to f32
      memref.store %f, %m[%i, %j] : memref<3x4xf32>
    }
  }
  return
}

func.func @entry() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %pad = arith.constant -1.0 : f32
  %m = memref.alloc() : memref<3x4xf32>
  call @fill(%m) : (memref<3x4xf32>) -> ()

  %r0 = vector.transfer_read %m[%c0, %c0], %pad : memref<3x4xf32>, vector<4xf32>
  vector.print %r0 : vector<4xf32>
  %r1 = vector.transfer_read %m[%c2, %c1], %pad {in_bounds = [true]} : memref<3x4xf32>, vector<3xf32>
  vector.print %r1 : vector<3xf32>
  %r2 = vector.transfer_read %m[%c1, %c1], %pad {in_bounds = [true, true]} : memref<3x4xf32>, vector<2x3xf32>
  vector.print %r2 : vector<2x3xf32>
  %r3 = vector.transfer_read %m[%c0, %c0], %pad : memref<3x4xf32>, vector<3x4xf32>
  vector.print %r3 : vector<3x4xf32>

  %md = memref.cast %m : memref<3x4xf32> to memref<?x?xf32>
  %r4 = vector.transfer_read %md[%c1, %c2], %pad : memref<?x?xf32>, vector<2xf32>
  vector.print %r4 : vector<2xf32>

  %t = memref.alloca() : memref<2x2x3xi16>
  %v = arith.constant dense<[[[1, 2, 3], [4, 5, 6]], [[7, 8, 9], [10, 11, 12]]]> : vector<2x2x3xi16>
  vector.transfer_write %v, %t[%c0, %c0, %c0] : vector<2x2x3xi16>, memref<2x2x3xi16>
  %ipad = arith.constant 0 : i16
  %r5 = vector.transfer_read %t[%c1, %c0, %c0], %ipad : memref<2x2x3xi16>, vector<2x3xi16>
  vector.print %r5 : vector<2x3xi16>
  %r6 = vector.transfer_read %t[%c0, %c1, %c1], %ipad : memref<2x2x3xi16>, vector<2xi16>
  vector.print %r6 : vector<2xi16>

  %g = memref.alloca() : memref<4xf64>
  %gv = arith.constant dense<[0.5, 1.5, 2.5, 3.5]> : vector<4xf64>
  vector.transfer_write %gv, %g[%c0] : vector<4xf64>, memref<4xf64>
  %dpad = arith.constant 0.0 : f64
  %r7 = vector.transfer_read %g[%c1], %dpad {in_bounds = [true]} : memref<4xf64>, vector<2xf64>
  vector.print %r7 : vector<2xf64>
  memref.dealloc %m : memref<3x4xf32>
  return
}
