// sum(x * y) over 64 f32 lanes, returned as a scalar: a contract to a 0-d result.
#dot = {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k)>, affine_map<(k) -> ()>], iterator_types = ["reduction"]}
func.func @dot_64(%x: memref<64xf32>, %y: memref<64xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %a = vector.transfer_read %x[%c0], %pad {in_bounds = [true]} : memref<64xf32>, vector<64xf32>
  %b = vector.transfer_read %y[%c0], %pad {in_bounds = [true]} : memref<64xf32>, vector<64xf32>
  %r = vector.contract #dot %a, %b, %pad : vector<64xf32>, vector<64xf32> into f32
  return %r : f32
}
