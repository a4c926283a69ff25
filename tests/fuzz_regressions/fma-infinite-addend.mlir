// fuzz: input_seed=136 stage=compiled mismatch: output differs: fma(x, x, -inf) with x*x overflowing gave NaN in the interpreter, -inf compiled (the exact sum is -inf)
module {
  func.func @f(%arg0: vector<2xf64>) -> vector<2xf64> {
    %0 = arith.constant dense<[0xFFF0000000000000, 1.000000e+00]> : vector<2xf64>
    %1 = vector.fma %arg0, %arg0, %0 : vector<2xf64>
    return %1 : vector<2xf64>
  }
}
