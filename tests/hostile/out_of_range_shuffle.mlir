func.func @f(%a: vector<4xf32>) -> vector<2xf32> {
  %0 = vector.shuffle %a, %a [0, 9] : vector<4xf32>, vector<4xf32>
  return %0 : vector<2xf32>
}
