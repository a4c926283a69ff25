// fuzz: input_seed=26481 stage=compiled mismatch: output differs at [1]: math.cosh of the constant 1.0 f32 gave coshf's 1.5430806 in the interpreter and 1.5430807 compiled: LLVM folded the call with the double cosh rounded to float (libm calls are now nobuiltin)
module {
  func.func @f(%arg0: vector<4xf32>) -> (vector<4xf32>, vector<4xf32>) {
    %0 = arith.constant dense<[0.000000e+00, 1.000000e+00, -3.000000e+00, 5.000000e-01]> : vector<4xf32>
    %1 = math.cosh %0 : vector<4xf32>
    %2 = math.exp %0 : vector<4xf32>
    return %1, %2 : vector<4xf32>, vector<4xf32>
  }
}
