// REFERENCE: mlir22
// vector.maskedload (result[k] = mask[k] ? base[i + k] : pass_thru[k], positional) and
// vector.maskedstore (writes base[i + k] only where mask[k]) on 1-D and 2-D memrefs
// (f32, i32, f64), with masks from constants, create_mask and constant_mask; masked-off
// lanes past the end of the memref are never touched (no UB).
func.func @entry() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %b = memref.alloc() : memref<8xf32>
  %init = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : vector<8xf32>
  vector.store %init, %b[%c0] : memref<8xf32>, vector<8xf32>

  %mask = arith.constant dense<[true, false, true, true, false]> : vector<5xi1>
  %pass = arith.constant dense<[-1.0, -2.0, -3.0, -4.0, -5.0]> : vector<5xf32>
  %l0 = vector.maskedload %b[%c2], %mask, %pass : memref<8xf32>, vector<5xi1>, vector<5xf32> into vector<5xf32>
  vector.print %l0 : vector<5xf32>
  // Reads past the end of the memref are masked off.
  %m1 = vector.create_mask %c2 : vector<4xi1>
  %pz = arith.constant dense<9.5> : vector<4xf32>
  %c6 = arith.constant 6 : index
  %l1 = vector.maskedload %b[%c6], %m1, %pz : memref<8xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  vector.print %l1 : vector<4xf32>

  %val = arith.constant dense<[10.0, 11.0, 12.0, 13.0]> : vector<4xf32>
  %ms = arith.constant dense<[false, true, false, true]> : vector<4xi1>
  vector.maskedstore %b[%c1], %ms, %val : memref<8xf32>, vector<4xi1>, vector<4xf32>
  %all = vector.load %b[%c0] : memref<8xf32>, vector<8xf32>
  vector.print %all : vector<8xf32>
  %m2 = vector.create_mask %c1 : vector<4xi1>
  vector.maskedstore %b[%c6], %m2, %val : memref<8xf32>, vector<4xi1>, vector<4xf32>
  %all2 = vector.load %b[%c0] : memref<8xf32>, vector<8xf32>
  vector.print %all2 : vector<8xf32>
  memref.dealloc %b : memref<8xf32>

  // 2-D memref: the vector runs along the minor dim from base[i, j].
  %t = memref.alloca() : memref<2x4xi32>
  %tv = arith.constant dense<[[1, 2, 3, 4], [5, 6, 7, 8]]> : vector<2x4xi32>
  vector.transfer_write %tv, %t[%c0, %c0] : vector<2x4xi32>, memref<2x4xi32>
  %tm = vector.constant_mask [3] : vector<4xi1>
  %tp = arith.constant dense<0> : vector<4xi32>
  %l2 = vector.maskedload %t[%c1, %c0], %tm, %tp : memref<2x4xi32>, vector<4xi1>, vector<4xi32> into vector<4xi32>
  vector.print %l2 : vector<4xi32>
  %sv = arith.constant dense<[-10, -20]> : vector<2xi32>
  %sm = arith.constant dense<[true, false]> : vector<2xi1>
  vector.maskedstore %t[%c0, %c2], %sm, %sv : memref<2x4xi32>, vector<2xi1>, vector<2xi32>
  %z32 = arith.constant 0 : i32
  %tr = vector.transfer_read %t[%c0, %c0], %z32 : memref<2x4xi32>, vector<2x4xi32>
  vector.print %tr : vector<2x4xi32>

  %d = memref.alloca() : memref<3xf64>
  %dv = arith.constant dense<[0.5, 0.25, 0.125]> : vector<3xf64>
  vector.store %dv, %d[%c0] : memref<3xf64>, vector<3xf64>
  %dm = arith.constant dense<[false, false, true]> : vector<3xi1>
  %dp = arith.constant dense<[8.0, 8.0, 8.0]> : vector<3xf64>
  %l3 = vector.maskedload %d[%c0], %dm, %dp : memref<3xf64>, vector<3xi1>, vector<3xf64> into vector<3xf64>
  vector.print %l3 : vector<3xf64>
  return
}
