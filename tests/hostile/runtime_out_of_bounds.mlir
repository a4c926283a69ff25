func.func @entry() {
  %m = memref.alloc() : memref<4xf32>
  %c9 = arith.constant 9 : index
  %v = vector.load %m[%c9] : memref<4xf32>, vector<4xf32>
  vector.print %v : vector<4xf32>
  return
}
