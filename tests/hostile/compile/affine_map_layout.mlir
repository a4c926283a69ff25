func.func @entry() {
  %m = memref.alloc() : memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>>
  return
}
