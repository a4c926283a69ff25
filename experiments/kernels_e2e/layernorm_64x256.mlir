// layernorm over the rows of a 64x256 f32 matrix, one row per iteration
func.func @layernorm(%X: memref<64x256xf32>, %G: memref<256xf32>, %B: memref<256xf32>, %Y: memref<64x256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %p = arith.constant 0.0 : f32
  %inv_n = arith.constant 3.906250000e-03 : f32
  %eps = arith.constant 9.99999974e-06 : f32
  scf.for %i = %c0 to %c64 step %c1 {
    %x = vector.transfer_read %X[%i, %c0], %p {in_bounds = [true]} : memref<64x256xf32>, vector<256xf32>
    %g = vector.transfer_read %G[%c0], %p {in_bounds = [true]} : memref<256xf32>, vector<256xf32>
    %b = vector.transfer_read %B[%c0], %p {in_bounds = [true]} : memref<256xf32>, vector<256xf32>
    %s = vector.reduction <add>, %x : vector<256xf32> into f32
    %mean = arith.mulf %s, %inv_n : f32
    %mb = vector.broadcast %mean : f32 to vector<256xf32>
    %d = arith.subf %x, %mb : vector<256xf32>
    %d2 = arith.mulf %d, %d : vector<256xf32>
    %ss = vector.reduction <add>, %d2 : vector<256xf32> into f32
    %var = arith.mulf %ss, %inv_n : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    %rb = vector.broadcast %r : f32 to vector<256xf32>
    %nrm = arith.mulf %d, %rb : vector<256xf32>
    %sc = arith.mulf %nrm, %g : vector<256xf32>
    %y = arith.addf %sc, %b : vector<256xf32>
    vector.transfer_write %y, %Y[%i, %c0] {in_bounds = [true]} : vector<256xf32>, memref<64x256xf32>
  }
  return
}
