func.func @f(%a: vector<2x3xf32>) -> vector<3x2xf32> {
  %0 = vector.transpose %a, [-1, 0] : vector<2x3xf32> to vector<3x2xf32>
  return %0 : vector<3x2xf32>
}
