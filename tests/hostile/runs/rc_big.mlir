// FAULT: exceeds its buffer of 16 bytes
func.func @entry() {
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  %m = memref.alloc() : memref<4xf32>
  %v = memref.reinterpret_cast %m to offset: [0], sizes: [100000000], strides: [1] : memref<4xf32> to memref<100000000xf32>
  %i = arith.constant 99999999 : index
  memref.store %f, %v[%i] : memref<100000000xf32>
  return
}
