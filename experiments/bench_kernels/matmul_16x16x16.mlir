// C += A * B for 16x16 A, 16x16 B: one vector.contract between whole-tile transfers.
#mm = {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
func.func @matmul_16x16x16(%A: memref<16x16xf32>, %B: memref<16x16xf32>, %C: memref<16x16xf32>) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %a = vector.transfer_read %A[%c0, %c0], %pad {in_bounds = [true, true]} : memref<16x16xf32>, vector<16x16xf32>
  %b = vector.transfer_read %B[%c0, %c0], %pad {in_bounds = [true, true]} : memref<16x16xf32>, vector<16x16xf32>
  %c = vector.transfer_read %C[%c0, %c0], %pad {in_bounds = [true, true]} : memref<16x16xf32>, vector<16x16xf32>
  %r = vector.contract #mm %a, %b, %c : vector<16x16xf32>, vector<16x16xf32> into vector<16x16xf32>
  vector.transfer_write %r, %C[%c0, %c0] {in_bounds = [true, true]} : vector<16x16xf32>, memref<16x16xf32>
  return
}
