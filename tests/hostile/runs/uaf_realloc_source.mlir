// FAULT: memref.load of a deallocated memref (use after free)
func.func @entry() {
  %m = memref.alloc() : memref<2xf64>
  %c0 = arith.constant 0 : index
  %f = arith.constant 5.0 : f64
  memref.store %f, %m[%c0] : memref<2xf64>
  %n = memref.realloc %m : memref<2xf64> to memref<6xf64>
  %x = memref.load %n[%c0] : memref<6xf64>
  vector.print %x : f64
  %y = memref.load %m[%c0] : memref<2xf64>
  vector.print %y : f64
  return
}
