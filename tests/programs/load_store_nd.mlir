// REFERENCE: hand -- MLIR 22 (and 19) convert-vector-to-llvm lowers only 0-D/1-D vector.load/vector.store; n-D ones stay unlowered. Expected output checked with numpy and with an equivalent in-bounds transfer_read/transfer_write program run through mlir-opt-22/mlir-runner-22
// n-D vector.load / vector.store: the vector covers a slice of the trailing memref dims
// starting at the indices, res[a, b] = base[i, j + a, k + b] (row-major); 2-D and 3-D
// vectors on 2-D/3-D memrefs, a strided subview (unit minor stride), f32/i32/f16.
memref.global "private" constant @table : memref<4x8xi32> = dense<[
  [0, 1, 2, 3, 4, 5, 6, 7],
  [10, 11, 12, 13, 14, 15, 16, 17],
  [20, 21, 22, 23, 24, 25, 26, 27],
  [30, 31, 32, 33, 34, 35, 36, 37]]>

func.func @entry() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %t = memref.get_global @table : memref<4x8xi32>
  %l1 = vector.load %t[%c2, %c3] : memref<4x8xi32>, vector<2x3xi32>
  vector.print %l1 : vector<2x3xi32>

  %a = memref.alloc() : memref<4x8xi32>
  %all = vector.load %t[%c0, %c0] : memref<4x8xi32>, vector<4x8xi32>
  vector.store %all, %a[%c0, %c0] : memref<4x8xi32>, vector<4x8xi32>
  %sv = memref.subview %a[1, 2] [3, 4] [1, 1] : memref<4x8xi32> to memref<3x4xi32, strided<[8, 1], offset: 10>>
  %s1 = vector.load %sv[%c1, %c1] : memref<3x4xi32, strided<[8, 1], offset: 10>>, vector<2x3xi32>
  vector.print %s1 : vector<2x3xi32>
  %blk = arith.constant dense<[[-1, -2], [-3, -4]]> : vector<2x2xi32>
  vector.store %blk, %sv[%c0, %c2] : memref<3x4xi32, strided<[8, 1], offset: 10>>, vector<2x2xi32>
  %whole = vector.load %a[%c0, %c0] : memref<4x8xi32>, vector<4x8xi32>
  vector.print %whole : vector<4x8xi32>
  memref.dealloc %a : memref<4x8xi32>

  %h = memref.alloca() : memref<2x2x4xf16>
  %hv = arith.constant dense<[[[0.5, 1.0, 1.5, 2.0], [2.5, 3.0, 3.5, 4.0]], [[-0.5, -1.0, -1.5, -2.0], [-2.5, -3.0, -3.5, -4.0]]]> : vector<2x2x4xf16>
  vector.store %hv, %h[%c0, %c0, %c0] : memref<2x2x4xf16>, vector<2x2x4xf16>
  %h1 = vector.load %h[%c1, %c0, %c1] : memref<2x2x4xf16>, vector<2x2xf16>
  vector.print %h1 : vector<2x2xf16>
  %h2 = vector.load %h[%c0, %c1, %c0] : memref<2x2x4xf16>, vector<1x4xf16>
  vector.print %h2 : vector<1x4xf16>

  %f = memref.alloca() : memref<3x3x3xf32>
  %z = arith.constant dense<0.0> : vector<3x3x3xf32>
  vector.store %z, %f[%c0, %c0, %c0] : memref<3x3x3xf32>, vector<3x3x3xf32>
  %cube = arith.constant dense<[[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]]> : vector<2x2x2xf32>
  vector.store %cube, %f[%c1, %c1, %c0] : memref<3x3x3xf32>, vector<2x2x2xf32>
  %fr = vector.load %f[%c0, %c0, %c0] : memref<3x3x3xf32>, vector<3x3x3xf32>
  vector.print %fr : vector<3x3x3xf32>
  return
}
