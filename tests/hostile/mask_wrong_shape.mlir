func.func @f(%m: memref<8xf32>, %k: vector<3xi1>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.0 : f32
  %0 = vector.transfer_read %m[%c0], %p, %k : memref<8xf32>, vector<4xf32>
  return %0 : vector<4xf32>
}
