func.func @f(%m: memref<8x8xf32>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %0 = vector.load %m[%c0] : memref<8x8xf32>, vector<4xf32>
  return %0 : vector<4xf32>
}
