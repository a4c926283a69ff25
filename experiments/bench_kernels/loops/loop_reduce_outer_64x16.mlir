// The reduce_outer_64x16 kernel repeated %n times in an scf.for (how a small kernel is usually
// timed). MLIR's --test-lower-to-llvm code may put allocas inside the loop body.
// ARGS: n=20000
func.func @loop_reduce_outer_64x16(%A: memref<64x16xf32>, %y: memref<16xf32>, %n: index) {
  %c0_rep = arith.constant 0 : index
  %c1_rep = arith.constant 1 : index
  scf.for %i_rep = %c0_rep to %n step %c1_rep {
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %a = vector.transfer_read %A[%c0, %c0], %pad {in_bounds = [true, true]} : memref<64x16xf32>, vector<64x16xf32>
    %acc = vector.transfer_read %y[%c0], %pad {in_bounds = [true]} : memref<16xf32>, vector<16xf32>
    %r = vector.multi_reduction <add>, %a, %acc [0] : vector<64x16xf32> to vector<16xf32>
    vector.transfer_write %r, %y[%c0] {in_bounds = [true]} : vector<16xf32>, memref<16xf32>
  }
  return
}
