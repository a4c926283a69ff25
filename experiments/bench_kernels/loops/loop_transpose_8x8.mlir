// The transpose_8x8 kernel repeated %n times in an scf.for (how a small kernel is usually
// timed). MLIR's --test-lower-to-llvm code may put allocas inside the loop body.
// ARGS: n=20000
func.func @loop_transpose_8x8(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %n: index) {
  %c0_rep = arith.constant 0 : index
  %c1_rep = arith.constant 1 : index
  scf.for %i_rep = %c0_rep to %n step %c1_rep {
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %a = vector.transfer_read %A[%c0, %c0], %pad {in_bounds = [true, true]} : memref<8x8xf32>, vector<8x8xf32>
    %t = vector.transpose %a, [1, 0] : vector<8x8xf32> to vector<8x8xf32>
    vector.transfer_write %t, %B[%c0, %c0] {in_bounds = [true, true]} : vector<8x8xf32>, memref<8x8xf32>
  }
  return
}
