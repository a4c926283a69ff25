// FAULT: memref.cast to sizes [100000000]: the source's sizes differ
func.func @entry() {
  %n = arith.constant 4 : index
  %m = memref.alloc(%n) : memref<?xf32>
  %c = memref.cast %m : memref<?xf32> to memref<100000000xf32>
  %i = arith.constant 99999990 : index
  %f = arith.constant 1.0 : f32
  memref.store %f, %c[%i] : memref<100000000xf32>
  return
}
