// FAULT: memref.realloc with a negative or overflowing size
func.func @entry() {
  %m = memref.alloc() : memref<4xf32>
  %n = arith.constant -5 : index
  %r = memref.realloc %m(%n) : memref<4xf32> to memref<?xf32>
  return
}
