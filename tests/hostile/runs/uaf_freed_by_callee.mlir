// FAULT: memref.store of a deallocated memref (use after free)
func.func @release(%m: memref<?xi32>) {
  memref.dealloc %m : memref<?xi32>
  return
}
func.func @entry() {
  %c3 = arith.constant 3 : index
  %m = memref.alloc(%c3) : memref<?xi32>
  %u = memref.cast %m : memref<?xi32> to memref<*xi32>
  %r = memref.cast %u : memref<*xi32> to memref<?xi32>
  call @release(%r) : (memref<?xi32>) -> ()
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  memref.store %one, %m[%c0] : memref<?xi32>
  return
}
