// FAULT: memref.alloc with a negative or overflowing size
func.func @entry() {
  %n = arith.constant -1 : index
  %m = memref.alloc(%n) : memref<?xf32>
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  memref.store %f, %m[%c0] : memref<?xf32>
  return
}
