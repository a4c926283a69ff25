// B = transpose(A) for a 8x8 f32 tile.
func.func @transpose_8x8(%A: memref<8x8xf32>, %B: memref<8x8xf32>) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %a = vector.transfer_read %A[%c0, %c0], %pad {in_bounds = [true, true]} : memref<8x8xf32>, vector<8x8xf32>
  %t = vector.transpose %a, [1, 0] : vector<8x8xf32> to vector<8x8xf32>
  vector.transfer_write %t, %B[%c0, %c0] {in_bounds = [true, true]} : vector<8x8xf32>, memref<8x8xf32>
  return
}
