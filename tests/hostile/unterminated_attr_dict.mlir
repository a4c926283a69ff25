func.func @f(%a: vector<2x3xf32>) -> vector<2x2xf32> {
  %0 = vector.extract_strided_slice %a {offsets = [0, 0], sizes = [2, 2], strides = [1, 1] : vector<2x3xf32> to vector<2x2xf32>
  return %0 : vector<2x2xf32>
}
