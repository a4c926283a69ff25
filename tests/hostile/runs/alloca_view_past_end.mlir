// FAULT: exceeds its buffer
func.func @entry() {
  %m = memref.alloca() : memref<2x2xf32>
  %v = memref.reinterpret_cast %m to offset: [1], sizes: [2, 2], strides: [2, 1] : memref<2x2xf32> to memref<2x2xf32, strided<[2, 1], offset: 1>>
  %f = arith.constant 1.0 : f32
  %c1 = arith.constant 1 : index
  memref.store %f, %v[%c1, %c1] : memref<2x2xf32, strided<[2, 1], offset: 1>>
  return
}
