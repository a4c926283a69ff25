// FAULT: do not split
func.func @entry() {
  %m = memref.alloc() : memref<4xf32>
  %n = arith.constant 100000 : index
  %v = memref.expand_shape %m [[0, 1]] output_shape [%n, 2] : memref<4xf32> into memref<?x2xf32>
  %i = arith.constant 99999 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  memref.store %f, %v[%i, %c1] : memref<?x2xf32>
  return
}
