// FAULT: memref.copy of a deallocated memref (use after free)
func.func @entry() {
  %a = memref.alloc() : memref<f32>
  %b = memref.alloc() : memref<f32>
  memref.dealloc %a : memref<f32>
  memref.copy %a, %b : memref<f32> to memref<f32>
  memref.dealloc %b : memref<f32>
  return
}
