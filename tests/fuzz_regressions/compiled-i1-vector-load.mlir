// fuzz: input_seed=128 stage=compiled mismatch: printed output differs: a <N x i1> load read packed bits
module {
  func.func @f(%arg0: memref<1x8xi1>, %arg1: vector<1x2x5xf64>) -> vector<1x2x5xf64> {
    %0 = arith.constant 0 : index
    %1 = arith.constant 0 : index
    %2 = vector.load %arg0[%0, %1] : memref<1x8xi1>, vector<8xi1>
    vector.print %2 : vector<8xi1>
    return %arg1 : vector<1x2x5xf64>
  }
}
