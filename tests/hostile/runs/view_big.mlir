// FAULT: exceeds its buffer of 16 bytes
func.func @entry() {
  %m = memref.alloc() : memref<16xi8>
  %c0 = arith.constant 0 : index
  %v = memref.view %m[%c0][] : memref<16xi8> to memref<1000000xf32>
  %i = arith.constant 999999 : index
  %f = arith.constant 1.0 : f32
  memref.store %f, %v[%i] : memref<1000000xf32>
  return
}
