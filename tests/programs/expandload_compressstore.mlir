// REFERENCE: mlir22
// vector.expandload: lanes with a set mask bit take consecutive elements read from
// base[i], base[i+1], ... (the index only advances on set bits); other lanes take pass_thru.
// vector.compressstore: the set lanes of the value are written contiguously from base[i].
// 1-D and 2-D memrefs, f32 and i16, all-false and all-true masks.
func.func @entry() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %b = memref.alloc() : memref<8xf32>
  %bv = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : vector<8xf32>
  vector.store %bv, %b[%c0] : memref<8xf32>, vector<8xf32>

  %mask = arith.constant dense<[false, true, false, true, true, false]> : vector<6xi1>
  %pass = arith.constant dense<[-1.0, -2.0, -3.0, -4.0, -5.0, -6.0]> : vector<6xf32>
  %e0 = vector.expandload %b[%c3], %mask, %pass : memref<8xf32>, vector<6xi1>, vector<6xf32> into vector<6xf32>
  vector.print %e0 : vector<6xf32>
  %none = vector.constant_mask [0] : vector<6xi1>
  %e1 = vector.expandload %b[%c0], %none, %pass : memref<8xf32>, vector<6xi1>, vector<6xf32> into vector<6xf32>
  vector.print %e1 : vector<6xf32>
  %allm = vector.constant_mask [4] : vector<4xi1>
  %p4 = arith.constant dense<0.0> : vector<4xf32>
  %e2 = vector.expandload %b[%c1], %allm, %p4 : memref<8xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  vector.print %e2 : vector<4xf32>

  %val = arith.constant dense<[10.0, 20.0, 30.0, 40.0, 50.0]> : vector<5xf32>
  %cm = arith.constant dense<[true, false, false, true, true]> : vector<5xi1>
  vector.compressstore %b[%c1], %cm, %val : memref<8xf32>, vector<5xi1>, vector<5xf32>
  %after = vector.load %b[%c0] : memref<8xf32>, vector<8xf32>
  vector.print %after : vector<8xf32>
  memref.dealloc %b : memref<8xf32>

  %m = memref.alloca() : memref<2x4xi16>
  %mv = arith.constant dense<[[1, 2, 3, 4], [5, 6, 7, 8]]> : vector<2x4xi16>
  vector.transfer_write %mv, %m[%c0, %c0] : vector<2x4xi16>, memref<2x4xi16>
  %m2 = arith.constant dense<[true, true, false, true]> : vector<4xi1>
  %p2 = arith.constant dense<-9> : vector<4xi16>
  %e3 = vector.expandload %m[%c1, %c1], %m2, %p2 : memref<2x4xi16>, vector<4xi1>, vector<4xi16> into vector<4xi16>
  vector.print %e3 : vector<4xi16>
  %v2 = arith.constant dense<[-100, -200, -300, -400]> : vector<4xi16>
  %m3 = arith.constant dense<[false, true, true, false]> : vector<4xi1>
  vector.compressstore %m[%c0, %c0], %m3, %v2 : memref<2x4xi16>, vector<4xi1>, vector<4xi16>
  %z = arith.constant 0 : i16
  %mr = vector.transfer_read %m[%c0, %c0], %z : memref<2x4xi16>, vector<2x4xi16>
  vector.print %mr : vector<2x4xi16>
  return
}
