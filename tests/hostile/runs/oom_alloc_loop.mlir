// FAULT: memref.alloc: out of memory
func.func @entry() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 100000 : index
  %sz = arith.constant 100000000 : index
  scf.for %i = %c0 to %n step %c1 {
    %m = memref.alloc(%sz) : memref<?xf32>
    %f = arith.constant 1.0 : f32
    memref.store %f, %m[%c0] : memref<?xf32>
  }
  return
}
