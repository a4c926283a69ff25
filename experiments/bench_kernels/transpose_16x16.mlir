// B = transpose(A) for a 16x16 f32 tile.
func.func @transpose_16x16(%A: memref<16x16xf32>, %B: memref<16x16xf32>) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %a = vector.transfer_read %A[%c0, %c0], %pad {in_bounds = [true, true]} : memref<16x16xf32>, vector<16x16xf32>
  %t = vector.transpose %a, [1, 0] : vector<16x16xf32> to vector<16x16xf32>
  vector.transfer_write %t, %B[%c0, %c0] {in_bounds = [true, true]} : vector<16x16xf32>, memref<16x16xf32>
  return
}
