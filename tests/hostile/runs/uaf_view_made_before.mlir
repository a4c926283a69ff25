// FAULT: vector.transfer_write of a deallocated memref (use after free)
func.func @entry() {
  %m = memref.alloc() : memref<8x8xf32>
  %v = memref.subview %m[2, 0] [2, 8] [1, 1] : memref<8x8xf32> to memref<2x8xf32, strided<[8, 1], offset: 16>>
  %c0 = arith.constant 0 : index
  %x = arith.constant dense<1.0> : vector<8xf32>
  memref.dealloc %m : memref<8x8xf32>
  vector.transfer_write %x, %v[%c0, %c0] : vector<8xf32>, memref<2x8xf32, strided<[8, 1], offset: 16>>
  return
}
