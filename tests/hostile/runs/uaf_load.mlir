// FAULT: memref.load of a deallocated memref (use after free)
func.func @entry() {
  %m = memref.alloc() : memref<4xf32>
  %c1 = arith.constant 1 : index
  %f = arith.constant 2.0 : f32
  memref.store %f, %m[%c1] : memref<4xf32>
  memref.dealloc %m : memref<4xf32>
  %x = memref.load %m[%c1] : memref<4xf32>
  vector.print %x : f32
  return
}
