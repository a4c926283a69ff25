func.func @f(%a: vector<4xf32>) -> vector<4xf32> {
  %0 = arith.addf %a, %a : vector<4xf32>
