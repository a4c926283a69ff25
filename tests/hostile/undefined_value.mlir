func.func @f(%a: vector<4xf32>) -> vector<4xf32> {
  %0 = arith.addf %a, %nowhere : vector<4xf32>
  return %0 : vector<4xf32>
}
