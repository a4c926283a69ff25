func.func @f() -> vector<3xf32> {
  %0 = arith.constant dense<[1.0, 2.0]> : vector<3xf32>
  return %0 : vector<3xf32>
}
