// The matmul_bt_8x8x8 kernel repeated %n times in an scf.for (how a small kernel is usually
// timed). MLIR's --test-lower-to-llvm code may put allocas inside the loop body.
// ARGS: n=20000
#mmt = {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (j, k)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
func.func @loop_matmul_bt_8x8x8(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>, %n: index) {
  %c0_rep = arith.constant 0 : index
  %c1_rep = arith.constant 1 : index
  scf.for %i_rep = %c0_rep to %n step %c1_rep {
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %a = vector.transfer_read %A[%c0, %c0], %pad {in_bounds = [true, true]} : memref<8x8xf32>, vector<8x8xf32>
    %b = vector.transfer_read %B[%c0, %c0], %pad {in_bounds = [true, true]} : memref<8x8xf32>, vector<8x8xf32>
    %c = vector.transfer_read %C[%c0, %c0], %pad {in_bounds = [true, true]} : memref<8x8xf32>, vector<8x8xf32>
    %r = vector.contract #mmt %a, %b, %c : vector<8x8xf32>, vector<8x8xf32> into vector<8x8xf32>
    vector.transfer_write %r, %C[%c0, %c0] {in_bounds = [true, true]} : vector<8x8xf32>, memref<8x8xf32>
  }
  return
}
