func.func @f(%m: memref<4x4xf32>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.0 : f32
  %0 = vector.transfer_read %m[%c0, %c0], %p {permutation_map = affine_map<(d0, d1) -> (d1 floordiv 0)>} : memref<4x4xf32>, vector<4xf32>
  return %0 : vector<4xf32>
}
