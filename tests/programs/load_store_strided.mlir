// REFERENCE: mlir22
// vector.load / vector.store with 1-D and 0-D vectors (MLIR 22 lowers only these; n-D ones
// are in load_store_nd.mlir): reads along the minor dim of 2-D memrefs, a memref.global
// table, strided memrefs from memref.subview (row stride 8, offset 10; a row-step-2 subview),
// memref.cast to a fully dynamic strided layout, memref.dim on a subview, a memref whose
// elements are vectors, and the nontemporal attribute.
memref.global "private" constant @table : memref<4x8xi32> = dense<[
  [0, 1, 2, 3, 4, 5, 6, 7],
  [10, 11, 12, 13, 14, 15, 16, 17],
  [20, 21, 22, 23, 24, 25, 26, 27],
  [30, 31, 32, 33, 34, 35, 36, 37]]>

func.func @copy_table(%dst: memref<4x8xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %t = memref.get_global @table : memref<4x8xi32>
  scf.for %i = %c0 to %c4 step %c1 {
    %row = vector.load %t[%i, %c0] : memref<4x8xi32>, vector<8xi32>
    vector.store %row, %dst[%i, %c0] : memref<4x8xi32>, vector<8xi32>
  }
  return
}

func.func @print_rows(%m: memref<4x8xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %row = vector.load %m[%i, %c0] : memref<4x8xi32>, vector<8xi32>
    vector.print %row : vector<8xi32>
  }
  return
}

func.func @entry() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %t = memref.get_global @table : memref<4x8xi32>
  %l0 = vector.load %t[%c1, %c2] : memref<4x8xi32>, vector<4xi32>
  vector.print %l0 : vector<4xi32>
  %l2 = vector.load %t[%c3, %c1] : memref<4x8xi32>, vector<i32>
  vector.print %l2 : vector<i32>

  %a = memref.alloc() : memref<4x8xi32>
  call @copy_table(%a) : (memref<4x8xi32>) -> ()
  // Subview: rows 1..3, columns 2..5 of the 4x8 table (strides [8, 1], offset 10).
  %sv = memref.subview %a[1, 2] [3, 4] [1, 1] : memref<4x8xi32> to memref<3x4xi32, strided<[8, 1], offset: 10>>
  %s0 = vector.load %sv[%c0, %c0] : memref<3x4xi32, strided<[8, 1], offset: 10>>, vector<4xi32>
  vector.print %s0 : vector<4xi32>
  %s1 = vector.load %sv[%c1, %c1] : memref<3x4xi32, strided<[8, 1], offset: 10>>, vector<3xi32>
  vector.print %s1 : vector<3xi32>
  %d0 = memref.dim %sv, %c0 : memref<3x4xi32, strided<[8, 1], offset: 10>>
  %d1 = memref.dim %sv, %c1 : memref<3x4xi32, strided<[8, 1], offset: 10>>
  vector.print %d0 : index
  vector.print %d1 : index
  %neg = arith.constant dense<[-1, -2, -3]> : vector<3xi32>
  vector.store %neg, %sv[%c2, %c1] : memref<3x4xi32, strided<[8, 1], offset: 10>>, vector<3xi32>
  // Row step 2: rows 0 and 2, columns 4..7 (strides [16, 1], offset 4).
  %sv2 = memref.subview %a[0, 4] [2, 4] [2, 1] : memref<4x8xi32> to memref<2x4xi32, strided<[16, 1], offset: 4>>
  %s2 = vector.load %sv2[%c1, %c0] : memref<2x4xi32, strided<[16, 1], offset: 4>>, vector<4xi32>
  vector.print %s2 : vector<4xi32>
  %pos = arith.constant dense<[100, 200]> : vector<2xi32>
  vector.store %pos, %sv2[%c0, %c2] {nontemporal = true} : memref<2x4xi32, strided<[16, 1], offset: 4>>, vector<2xi32>
  // Fully dynamic strided layout via memref.cast.
  %dyn = memref.cast %sv : memref<3x4xi32, strided<[8, 1], offset: 10>> to memref<?x?xi32, strided<[?, 1], offset: ?>>
  %s3 = vector.load %dyn[%c2, %c0] : memref<?x?xi32, strided<[?, 1], offset: ?>>, vector<4xi32>
  vector.print %s3 : vector<4xi32>
  %e = vector.load %dyn[%c0, %c3] {nontemporal = true} : memref<?x?xi32, strided<[?, 1], offset: ?>>, vector<i32>
  vector.print %e : vector<i32>
  call @print_rows(%a) : (memref<4x8xi32>) -> ()
  memref.dealloc %a : memref<4x8xi32>

  // f16 memref, 0-D store.
  %h = memref.alloca() : memref<5xf16>
  %hv = arith.constant dense<[0.5, 1.0, 1.5, 2.0, 2.5]> : vector<5xf16>
  vector.store %hv, %h[%c0] : memref<5xf16>, vector<5xf16>
  %h0 = arith.constant dense<-8.0> : vector<f16>
  vector.store %h0, %h[%c3] : memref<5xf16>, vector<f16>
  %h1 = vector.load %h[%c1] : memref<5xf16>, vector<4xf16>
  vector.print %h1 : vector<4xf16>

  // Memref whose elements are vectors.
  %vm = memref.alloca() : memref<3xvector<2xf64>>
  %p = arith.constant dense<[1.25, -1.25]> : vector<2xf64>
  %q = arith.constant dense<[2.5, -2.5]> : vector<2xf64>
  vector.store %p, %vm[%c0] : memref<3xvector<2xf64>>, vector<2xf64>
  vector.store %q, %vm[%c2] : memref<3xvector<2xf64>>, vector<2xf64>
  %r = vector.load %vm[%c2] : memref<3xvector<2xf64>>, vector<2xf64>
  vector.print %r : vector<2xf64>
  %r0 = memref.load %vm[%c0] : memref<3xvector<2xf64>>
  vector.print %r0 : vector<2xf64>
  return
}
