// REFERENCE: mlir22
// A transfer marked in_bounds that reaches past a dimension but stays inside the allocation
// reads (and writes) the flat memory, as MLIR's lowering does: row 0 from column 2 runs on
// into row 1. eqsat warns (eqsat run --strict makes it a fault instead).
func.func @entry() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %pad = arith.constant -1.0 : f32
  %m = memref.alloc() : memref<3x4xf32>
  %v = arith.constant dense<[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]]> : vector<3x4xf32>
  vector.transfer_write %v, %m[%c0, %c0] {in_bounds = [true, true]} : vector<3x4xf32>, memref<3x4xf32>
  %r = vector.transfer_read %m[%c0, %c2], %pad {in_bounds = [true]} : memref<3x4xf32>, vector<4xf32>
  vector.print %r : vector<4xf32>
  %r2 = vector.transfer_read %m[%c0, %c1], %pad {in_bounds = [true, true]} : memref<3x4xf32>, vector<2x4xf32>
  vector.print %r2 : vector<2x4xf32>
  %r3 = vector.transfer_read %m[%c0, %c2], %pad : memref<3x4xf32>, vector<4xf32>
  vector.print %r3 : vector<4xf32>
  %w = arith.constant dense<[20.0, 21.0, 22.0]> : vector<3xf32>
  vector.transfer_write %w, %m[%c1, %c3] {in_bounds = [true]} : vector<3xf32>, memref<3x4xf32>
  %all = vector.transfer_read %m[%c0, %c0], %pad {in_bounds = [true, true]} : memref<3x4xf32>, vector<3x4xf32>
  vector.print %all : vector<3x4xf32>
  memref.dealloc %m : memref<3x4xf32>
  return
}
