// multi-reduce-*-to-contract-*, contract-absorb-*-read-*, contract-absorb-*-nd, ivec-index-*:
// the forms MLIR 22's vectorizer emits for linalg contractions without contraction folding.
#lhs = affine_map<(d0, d1) -> (d0, 0, d1)>
#rhs = affine_map<(d0, d1) -> (0, d1, d0)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
#bc = affine_map<(d0) -> (0, d0)>
func.func @matmul_vectorized(%A: memref<4x2xf32>, %B: memref<2x8xf32>, %C: memref<4x8xf32>) -> vector<4x8xf32> {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.0 : f32
  %0 = vector.transfer_read %A[%c0, %c0], %p {in_bounds = [true, true, true], permutation_map = #lhs} : memref<4x2xf32>, vector<4x8x2xf32>
  %1 = vector.transfer_read %B[%c0, %c0], %p {in_bounds = [true, true, true], permutation_map = #rhs} : memref<2x8xf32>, vector<4x8x2xf32>
  %2 = vector.transfer_read %C[%c0, %c0], %p {in_bounds = [true, true]} : memref<4x8xf32>, vector<4x8xf32>
  %3 = arith.mulf %0, %1 : vector<4x8x2xf32>
  %4 = vector.multi_reduction <add>, %3, %2 [2] : vector<4x8x2xf32> to vector<4x8xf32>
  return %4 : vector<4x8xf32>
}

func.func @matvec_transposed(%A: memref<4x8xf32>, %x: memref<4xf32>, %y: vector<8xf32>) -> vector<8xf32> {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.0 : f32
  %0 = vector.transfer_read %A[%c0, %c0], %p {in_bounds = [true, true], permutation_map = #tr} : memref<4x8xf32>, vector<8x4xf32>
  %1 = vector.transfer_read %x[%c0], %p {in_bounds = [true, true], permutation_map = #bc} : memref<4xf32>, vector<8x4xf32>
  %2 = arith.mulf %0, %1 : vector<8x4xf32>
  %3 = vector.multi_reduction <add>, %2, %y [1] : vector<8x4xf32> to vector<8xf32>
  %4 = arith.mulf %1, %0 : vector<8x4xf32>
  %5 = vector.multi_reduction <add>, %4, %3 [1] : vector<8x4xf32> to vector<8xf32>
  return %5 : vector<8xf32>
}

func.func @batched_moves(%a: vector<4x2xf32>, %b: vector<2x2x4xf32>, %acc: vector<2x4xf32>) -> vector<2x4xf32> {
  %0 = vector.broadcast %a : vector<4x2xf32> to vector<2x4x2xf32>
  %1 = vector.transpose %b, [0, 2, 1] : vector<2x2x4xf32> to vector<2x4x2xf32>
  %2 = arith.mulf %0, %1 : vector<2x4x2xf32>
  %3 = vector.multi_reduction <add>, %2, %acc [2] : vector<2x4x2xf32> to vector<2x4xf32>
  %4 = arith.mulf %1, %0 : vector<2x4x2xf32>
  %5 = vector.multi_reduction <add>, %4, %3 [2] : vector<2x4x2xf32> to vector<2x4xf32>
  return %5 : vector<2x4xf32>
}

func.func @reduce_many_dims(%a: vector<4x3x2xf32>, %b: vector<4x3x2xf32>, %acc: vector<4xf32>, %s: f32) -> (vector<4xf32>, f32) {
  %0 = arith.mulf %a, %b : vector<4x3x2xf32>
  %1 = vector.multi_reduction <add>, %0, %acc [1, 2] : vector<4x3x2xf32> to vector<4xf32>
  %2 = vector.multi_reduction <add>, %0, %s [0, 1, 2] : vector<4x3x2xf32> to f32
  return %1, %2 : vector<4xf32>, f32
}

func.func @integer_products(%a: vector<4x8xi32>, %b: vector<4x8xi32>, %acc: vector<4xi32>, %c: vector<2x4x3xi32>, %acc2: vector<4xi32>) -> (vector<4xi32>, vector<4xi32>) {
  %0 = arith.muli %a, %b : vector<4x8xi32>
  %1 = vector.multi_reduction <add>, %0, %acc [1] : vector<4x8xi32> to vector<4xi32>
  %2 = arith.muli %c, %c : vector<2x4x3xi32>
  %3 = vector.multi_reduction <add>, %2, %acc2 [0, 2] : vector<2x4x3xi32> to vector<4xi32>
  return %1, %3 : vector<4xi32>, vector<4xi32>
}
