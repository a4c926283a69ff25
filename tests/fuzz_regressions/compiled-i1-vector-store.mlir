// fuzz: input_seed=209 stage=compiled mismatch: output differs: a <N x i1> store packed bits into one byte; memrefs of i1 hold a byte per element
module {
  func.func @f(%arg0: memref<8x5xi1>, %arg1: vector<2xi1>, %arg2: vector<2xi1>) -> vector<2xi1> {
    %0 = arith.constant 7 : index
    %1 = arith.constant 1 : index
    vector.store %arg1, %arg0[%0, %1] : memref<8x5xi1>, vector<2xi1>
    return %arg2 : vector<2xi1>
  }
}
