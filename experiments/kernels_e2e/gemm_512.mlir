// C += A B, 512x512x512 f32, 4x16 register tiles, 1 k step(s) per iteration
func.func @gemm(%A: memref<512x512xf32>, %B: memref<512x512xf32>, %C: memref<512x512xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c512 = arith.constant 512 : index
  %p = arith.constant 0.0 : f32
  scf.for %j = %c0 to %c512 step %c16 {
    scf.for %i = %c0 to %c512 step %c4 {
      scf.for %k = %c0 to %c512 step %c1 {
        %a = vector.transfer_read %A[%i, %k], %p {in_bounds = [true, true]} : memref<512x512xf32>, vector<4x1xf32>
        %b = vector.transfer_read %B[%k, %j], %p {in_bounds = [true, true]} : memref<512x512xf32>, vector<1x16xf32>
        %c = vector.transfer_read %C[%i, %j], %p {in_bounds = [true, true]} : memref<512x512xf32>, vector<4x16xf32>
        %d = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<4x1xf32>, vector<1x16xf32> into vector<4x16xf32>
        vector.transfer_write %d, %C[%i, %j] {in_bounds = [true, true]} : vector<4x16xf32>, memref<512x512xf32>
      }
    }
  }
  return
}
