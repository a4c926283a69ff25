// extract-of-insert-*, extract-of-broadcast, extract-of-splat, extract-of-from-elements-*,
// list-at-*, slice-*, insert-slice-whole.
func.func @extracts(%v: vector<4x8xf32>, %r: vector<8xf32>, %s: f32, %t: f32, %u: f32) -> (vector<8xf32>, vector<8xf32>, f32, vector<8xf32>, f32, f32, f32) {
  %0 = vector.insert %r, %v [2] : vector<8xf32> into vector<4x8xf32>
  %1 = vector.extract %0[2] : vector<8xf32> from vector<4x8xf32>
  %2 = vector.extract %0[1] : vector<8xf32> from vector<4x8xf32>
  %3 = vector.broadcast %s : f32 to vector<4x8xf32>
  %4 = vector.extract %3[1, 3] : f32 from vector<4x8xf32>
  %5 = vector.extract %3[2] : vector<8xf32> from vector<4x8xf32>
  %6 = vector.from_elements %s, %t, %u : vector<3xf32>
  %7 = vector.extract %6[2] : f32 from vector<3xf32>
  %8 = vector.from_elements %s, %t, %u, %s, %t, %u : vector<2x3xf32>
  %9 = vector.extract %8[1, 1] : f32 from vector<2x3xf32>
  %10 = vector.splat %t : vector<4xf32>
  %11 = vector.extract %10[3] : f32 from vector<4xf32>
  return %1, %2, %4, %5, %7, %9, %11 : vector<8xf32>, vector<8xf32>, f32, vector<8xf32>, f32, f32, f32
}

func.func @slices(%v: vector<16xf32>, %m: vector<8x8xf32>, %p: vector<4xf32>) -> (vector<4xf32>, vector<2x2xf32>, vector<16xf32>, vector<4xf32>, vector<4xf32>) {
  %0 = vector.extract_strided_slice %v {offsets = [4], sizes = [8], strides = [1]} : vector<16xf32> to vector<8xf32>
  %1 = vector.extract_strided_slice %0 {offsets = [2], sizes = [4], strides = [1]} : vector<8xf32> to vector<4xf32>
  %2 = vector.extract_strided_slice %m {offsets = [2, 2], sizes = [4, 4], strides = [1, 1]} : vector<8x8xf32> to vector<4x4xf32>
  %3 = vector.extract_strided_slice %2 {offsets = [1, 2], sizes = [2, 2], strides = [1, 1]} : vector<4x4xf32> to vector<2x2xf32>
  %4 = vector.extract_strided_slice %v {offsets = [0], sizes = [16], strides = [1]} : vector<16xf32> to vector<16xf32>
  %5 = vector.insert_strided_slice %p, %v {offsets = [8], strides = [1]} : vector<4xf32> into vector<16xf32>
  %6 = vector.extract_strided_slice %5 {offsets = [8], sizes = [4], strides = [1]} : vector<16xf32> to vector<4xf32>
  %7 = vector.insert_strided_slice %p, %p {offsets = [0], strides = [1]} : vector<4xf32> into vector<4xf32>
  return %1, %3, %4, %6, %7 : vector<4xf32>, vector<2x2xf32>, vector<16xf32>, vector<4xf32>, vector<4xf32>
}
