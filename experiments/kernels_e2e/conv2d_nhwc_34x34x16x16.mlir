// conv 2-D NHWC 34x34x16 * 3x3x16x16 -> 32x32x16 f32, 4x16 register tiles
func.func @conv(%I: memref<34x34x16xf32>, %K: memref<3x3x16x16xf32>, %O: memref<32x32x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %p = arith.constant 0.0 : f32
  scf.for %y = %c0 to %c32 step %c1 {
    scf.for %x = %c0 to %c32 step %c4 {
      scf.for %u = %c0 to %c3 step %c1 {
        scf.for %v = %c0 to %c3 step %c1 {
          scf.for %q = %c0 to %c16 step %c1 {
            %iy = arith.addi %y, %u : index
            %ix = arith.addi %x, %v : index
            %a = vector.transfer_read %I[%iy, %ix, %q], %p {in_bounds = [true, true]} : memref<34x34x16xf32>, vector<4x1xf32>
            %k = vector.transfer_read %K[%u, %v, %q, %c0], %p {in_bounds = [true, true]} : memref<3x3x16x16xf32>, vector<1x16xf32>
            %acc = vector.transfer_read %O[%y, %x, %c0], %p {in_bounds = [true, true]} : memref<32x32x16xf32>, vector<4x16xf32>
            %r = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %k, %acc : vector<4x1xf32>, vector<1x16xf32> into vector<4x16xf32>
            vector.transfer_write %r, %O[%y, %x, %c0] {in_bounds = [true, true]} : vector<4x16xf32>, memref<32x32x16xf32>
          }
        }
      }
    }
  }
  return
}
