// y = y + sum over the inner dimension of a 16x64 tile (multi_reduction over dim 1).
func.func @reduce_inner_16x64(%A: memref<16x64xf32>, %y: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %a = vector.transfer_read %A[%c0, %c0], %pad {in_bounds = [true, true]} : memref<16x64xf32>, vector<16x64xf32>
  %acc = vector.transfer_read %y[%c0], %pad {in_bounds = [true]} : memref<16xf32>, vector<16xf32>
  %r = vector.multi_reduction <add>, %a, %acc [1] : vector<16x64xf32> to vector<16xf32>
  vector.transfer_write %r, %y[%c0] {in_bounds = [true]} : vector<16xf32>, memref<16xf32>
  return
}
