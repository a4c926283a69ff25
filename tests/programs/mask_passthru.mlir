// REFERENCE: hand -- neither MLIR 22 nor MLIR 19 --lower-vector-mask lowers a vector.mask with a passthru operand (it stays unlowered); hand check in hand_checks/ uses transfer_read with a mask operand plus arith.select
// vector.mask with a passthru around vector.transfer_read (the only maskable op here that
// accepts a passthru): active lanes read memory (or the padding where out of bounds),
// masked-off lanes take the passthru lane, not the padding. 1-D with an out-of-bounds active
// lane, and 2-D (mask shape = vector shape for a minor-identity map).
func.func @entry() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %pad = arith.constant -1.0 : f32
  %m = memref.alloc() : memref<8xf32>
  %v = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : vector<8xf32>
  vector.store %v, %m[%c0] : memref<8xf32>, vector<8xf32>
  %mk = arith.constant dense<[true, false, true, false]> : vector<4xi1>
  %pt = arith.constant dense<[10.0, 20.0, 30.0, 40.0]> : vector<4xf32>
  %r0 = vector.mask %mk, %pt { vector.transfer_read %m[%c1], %pad : memref<8xf32>, vector<4xf32> } : vector<4xi1> -> vector<4xf32>
  vector.print %r0 : vector<4xf32>
  // Lanes 0, 1 in bounds (6, 7), lanes 2, 3 out of bounds; lane 2 active -> padding.
  %mk1 = arith.constant dense<[false, true, true, false]> : vector<4xi1>
  %r1 = vector.mask %mk1, %pt { vector.transfer_read %m[%c6], %pad : memref<8xf32>, vector<4xf32> } : vector<4xi1> -> vector<4xf32>
  vector.print %r1 : vector<4xf32>
  memref.dealloc %m : memref<8xf32>

  %t = memref.alloca() : memref<2x3xi32>
  %tv = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : vector<2x3xi32>
  vector.transfer_write %tv, %t[%c0, %c0] : vector<2x3xi32>, memref<2x3xi32>
  %ipad = arith.constant 0 : i32
  %tm = vector.constant_mask [1, 2] : vector<2x3xi1>
  %tp = arith.constant dense<[[-1, -2, -3], [-4, -5, -6]]> : vector<2x3xi32>
  %r2 = vector.mask %tm, %tp { vector.transfer_read %t[%c0, %c0], %ipad : memref<2x3xi32>, vector<2x3xi32> } : vector<2x3xi1> -> vector<2x3xi32>
  vector.print %r2 : vector<2x3xi32>
  return
}
