// FAULT: outside its source
// (a refused view must stay empty: its static shape once came back, and the store ran wild)
func.func @entry() {
  %m = memref.alloc() : memref<4xf32>
  %v = memref.subview %m[2] [1000000000] [1] : memref<4xf32> to memref<1000000000xf32, strided<[1], offset: 2>>
  %i = arith.constant 999999990 : index
  %f = arith.constant 1.0 : f32
  memref.store %f, %v[%i] : memref<1000000000xf32, strided<[1], offset: 2>>
  return
}
