func.func @f(%a: vector<4xf32>) -> vector<8xf32> {
  return %a : vector<4xf32>
}
