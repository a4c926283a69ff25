func.func @f(%a: vector<4xf32>, %b: vector<4xi32>) -> vector<4xf32> {
  %0 = arith.addf %a, %b : vector<4xf32>
  return %0 : vector<4xf32>
}
