// FAULT: not from memref.alloc (it is a memref.global)
memref.global "private" @g : memref<4xf32> = dense<1.0>
func.func @entry() {
  %m = memref.get_global @g : memref<4xf32>
  memref.dealloc %m : memref<4xf32>
  return
}
