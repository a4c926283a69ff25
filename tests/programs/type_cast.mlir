// REFERENCE: mlir22
// vector.type_cast: view a statically shaped scalar memref as a 0-D memref holding one vector
// of the same shape (aliasing, row-major): load the whole 2x4 matrix as one vector, store a
// vector through the view and read the scalars back; same for a 1-D i16 memref.
// Minor dims are powers of two on purpose: MLIR lowers memref<vector<2x3xf32>> to an LLVM
// array of vector<3xf32> whose elements are padded to 16 bytes, so a 2x3 view reads garbage
// (and a store through it writes out of bounds) - a lowering artifact, not the op's meaning.
func.func @entry() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %m = memref.alloc() : memref<2x4xf32>
  %init = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]> : vector<2x4xf32>
  vector.transfer_write %init, %m[%c0, %c0] : vector<2x4xf32>, memref<2x4xf32>
  %vm = vector.type_cast %m : memref<2x4xf32> to memref<vector<2x4xf32>>
  %v = memref.load %vm[] : memref<vector<2x4xf32>>
  vector.print %v : vector<2x4xf32>
  %neg = arith.negf %v : vector<2x4xf32>
  memref.store %neg, %vm[] : memref<vector<2x4xf32>>
  %x = memref.load %m[%c1, %c2] : memref<2x4xf32>
  vector.print %x : f32
  %y = memref.load %m[%c0, %c1] : memref<2x4xf32>
  vector.print %y : f32
  %i = memref.alloca() : memref<4xi16>
  %iv = arith.constant dense<[7, 8, 9, 10]> : vector<4xi16>
  %ivm = vector.type_cast %i : memref<4xi16> to memref<vector<4xi16>>
  memref.store %iv, %ivm[] : memref<vector<4xi16>>
  %z = arith.constant 0 : i16
  %r = vector.transfer_read %i[%c1], %z : memref<4xi16>, vector<3xi16>
  vector.print %r : vector<3xi16>
  memref.dealloc %m : memref<2x4xf32>
  return
}
