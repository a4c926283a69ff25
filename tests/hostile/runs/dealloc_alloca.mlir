// FAULT: not from memref.alloc (it is a memref.alloca)
func.func @entry() {
  %m = memref.alloca() : memref<4xf32>
  memref.dealloc %m : memref<4xf32>
  return
}
