// REFERENCE: mlir22
// subviews with dynamic offsets, sizes and strides and rank reduction; memref.view of an i8
// buffer as f32 (byte shift); unranked memrefs cast back to ranked; strided transfers,
// loads, stores, masked loads through every view.
func.func @entry() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c12 = arith.constant 12 : index
  %pad = arith.constant -1 : i32
  %M = memref.alloc() : memref<4x5xi32>
  %rows = arith.constant dense<[[0, 1, 2, 3, 4], [10, 11, 12, 13, 14], [20, 21, 22, 23, 24], [30, 31, 32, 33, 34]]> : vector<4x5xi32>
  vector.transfer_write %rows, %M[%c0, %c0] {in_bounds = [true, true]} : vector<4x5xi32>, memref<4x5xi32>
  // dynamic offsets, sizes and strides
  %D = memref.subview %M[%c1, %c0][%c3, %c3][%c1, %c2] : memref<4x5xi32> to memref<?x?xi32, strided<[?, ?], offset: ?>>
  %d = vector.transfer_read %D[%c0, %c0], %pad : memref<?x?xi32, strided<[?, ?], offset: ?>>, vector<3x4xi32>
  vector.print %d : vector<3x4xi32>
  %n = memref.dim %D, %c1 : memref<?x?xi32, strided<[?, ?], offset: ?>>
  vector.print %n : index
  // rank reduction: one row, then one column
  %Row = memref.subview %M[2, 1][1, 4][1, 1] : memref<4x5xi32> to memref<4xi32, strided<[1], offset: 11>>
  %r = vector.load %Row[%c0] : memref<4xi32, strided<[1], offset: 11>>, vector<4xi32>
  vector.print %r : vector<4xi32>
  %Col = memref.subview %M[0, %c3][4, 1][1, 1] : memref<4x5xi32> to memref<4xi32, strided<[5], offset: ?>>
  %col = vector.transfer_read %Col[%c0], %pad {in_bounds = [true]} : memref<4xi32, strided<[5], offset: ?>>, vector<4xi32>
  vector.print %col : vector<4xi32>
  %seven = arith.constant 7 : i32
  memref.store %seven, %Col[%c2] : memref<4xi32, strided<[5], offset: ?>>
  %mk = arith.constant dense<[true, false, true, true]> : vector<4xi1>
  %pt = arith.constant dense<0> : vector<4xi32>
  %ml = vector.maskedload %M[%c2, %c0], %mk, %pt : memref<4x5xi32>, vector<4xi1>, vector<4xi32> into vector<4xi32>
  vector.print %ml : vector<4xi32>
  %Rw = memref.subview %M[1, %c1][2, 4][1, 1] : memref<4x5xi32> to memref<2x4xi32, strided<[5, 1], offset: ?>>
  %m3 = vector.maskedload %Rw[%c1, %c0], %mk, %pt : memref<2x4xi32, strided<[5, 1], offset: ?>>, vector<4xi1>, vector<4xi32> into vector<4xi32>
  vector.print %m3 : vector<4xi32>
  // a subview of a subview
  %DD = memref.subview %D[1, 1][2, 2][1, 1] : memref<?x?xi32, strided<[?, ?], offset: ?>> to memref<2x2xi32, strided<[?, ?], offset: ?>>
  %dd = vector.transfer_read %DD[%c0, %c0], %pad {in_bounds = [true, true]} : memref<2x2xi32, strided<[?, ?], offset: ?>>, vector<2x2xi32>
  vector.print %dd : vector<2x2xi32>
  // unranked and back
  %U = memref.cast %M : memref<4x5xi32> to memref<*xi32>
  %B = memref.cast %U : memref<*xi32> to memref<4x5xi32>
  %b = vector.load %B[%c3, %c1] : memref<4x5xi32>, vector<3xi32>
  vector.print %b : vector<3xi32>
  // memref.view: bytes 8.. of an i8 buffer as a 2x?xf32 memref
  %bytes = memref.alloc() : memref<64xi8>
  %V = memref.view %bytes[%c8][%c3] : memref<64xi8> to memref<2x?xf32>
  %f = arith.constant dense<[[1.5, 2.5, 3.5], [4.5, 5.5, 6.5]]> : vector<2x3xf32>
  vector.transfer_write %f, %V[%c0, %c0] {in_bounds = [true, true]} : vector<2x3xf32>, memref<2x?xf32>
  %fb = vector.load %bytes[%c8] : memref<64xi8>, vector<4xi8>
  vector.print %fb : vector<4xi8>
  %V2 = memref.view %bytes[%c12][] : memref<64xi8> to memref<5xf32>
  %f2 = vector.load %V2[%c0] : memref<5xf32>, vector<5xf32>
  vector.print %f2 : vector<5xf32>
  memref.dealloc %bytes : memref<64xi8>
  memref.dealloc %M : memref<4x5xi32>
  return
}
