// FAULT: memref.copy between different shapes
func.func @entry() {
  %n = arith.constant 100000 : index
  %a = memref.alloc(%n) : memref<?xf32>
  %b = memref.alloc() : memref<4xf32>
  %c = memref.cast %b : memref<4xf32> to memref<?xf32>
  memref.copy %a, %c : memref<?xf32> to memref<?xf32>
  return
}
