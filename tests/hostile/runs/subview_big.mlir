// FAULT: outside its source
func.func @entry() {
  %m = memref.alloc() : memref<4xf32>
  %v = memref.subview %m[2] [100000] [1] : memref<4xf32> to memref<100000xf32, strided<[1], offset: 2>>
  %i = arith.constant 99990 : index
  %f = arith.constant 1.0 : f32
  memref.store %f, %v[%i] : memref<100000xf32, strided<[1], offset: 2>>
  return
}
