// The axpy_8x32 kernel repeated %n times in an scf.for (how a small kernel is usually
// timed). MLIR's --test-lower-to-llvm code may put allocas inside the loop body.
// ARGS: alpha=0.75 n=20000
func.func @loop_axpy_8x32(%alpha: f32, %X: memref<8x32xf32>, %Y: memref<8x32xf32>, %n: index) {
  %c0_rep = arith.constant 0 : index
  %c1_rep = arith.constant 1 : index
  scf.for %i_rep = %c0_rep to %n step %c1_rep {
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %x = vector.transfer_read %X[%c0, %c0], %pad {in_bounds = [true, true]} : memref<8x32xf32>, vector<8x32xf32>
    %y = vector.transfer_read %Y[%c0, %c0], %pad {in_bounds = [true, true]} : memref<8x32xf32>, vector<8x32xf32>
    %s = vector.broadcast %alpha : f32 to vector<8x32xf32>
    %r = vector.fma %s, %x, %y : vector<8x32xf32>
    vector.transfer_write %r, %Y[%c0, %c0] {in_bounds = [true, true]} : vector<8x32xf32>, memref<8x32xf32>
  }
  return
}
