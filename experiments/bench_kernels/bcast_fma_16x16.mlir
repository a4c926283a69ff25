// Y = A * broadcast(x) + Y for a 16x16 tile: each row of A scaled lane-wise by x (vector.fma).
func.func @bcast_fma_16x16(%A: memref<16x16xf32>, %x: memref<16xf32>, %Y: memref<16x16xf32>) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %a = vector.transfer_read %A[%c0, %c0], %pad {in_bounds = [true, true]} : memref<16x16xf32>, vector<16x16xf32>
  %v = vector.transfer_read %x[%c0], %pad {in_bounds = [true]} : memref<16xf32>, vector<16xf32>
  %y = vector.transfer_read %Y[%c0, %c0], %pad {in_bounds = [true, true]} : memref<16x16xf32>, vector<16x16xf32>
  %b = vector.broadcast %v : vector<16xf32> to vector<16x16xf32>
  %r = vector.fma %a, %b, %y : vector<16x16xf32>
  vector.transfer_write %r, %Y[%c0, %c0] {in_bounds = [true, true]} : vector<16x16xf32>, memref<16x16xf32>
  return
}
