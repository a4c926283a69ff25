func.func @f(%a: vector<2x3xf32>) -> vector<7xf32> {
  %0 = vector.shape_cast %a : vector<2x3xf32> to vector<7xf32>
  return %0 : vector<7xf32>
}
