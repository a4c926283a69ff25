// FAULT: memref.alloc with a negative or overflowing size
// (the refused buffer stays empty through a cast to a static shape and a subview of it)
func.func @entry() {
  %n = arith.constant -5 : index
  %m = memref.alloc(%n) : memref<?xf32>
  %c = memref.cast %m : memref<?xf32> to memref<100000000xf32>
  %t = memref.subview %c[0] [100000000] [1] : memref<100000000xf32> to memref<100000000xf32, strided<[1]>>
  %i = arith.constant 99999990 : index
  %f = arith.constant 1.0 : f32
  memref.store %f, %t[%i] : memref<100000000xf32, strided<[1]>>
  return
}
