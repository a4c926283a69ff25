// softmax over the rows of a 64x256 f32 matrix, one row per iteration
func.func @softmax(%X: memref<64x256xf32>, %Y: memref<64x256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %p = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c64 step %c1 {
    %x = vector.transfer_read %X[%i, %c0], %p {in_bounds = [true]} : memref<64x256xf32>, vector<256xf32>
    %m = vector.reduction <maxnumf>, %x : vector<256xf32> into f32
    %mb = vector.broadcast %m : f32 to vector<256xf32>
    %d = arith.subf %x, %mb : vector<256xf32>
    %e = math.exp %d : vector<256xf32>
    %s = vector.reduction <add>, %e : vector<256xf32> into f32
    %sb = vector.broadcast %s : f32 to vector<256xf32>
    %y = arith.divf %e, %sb : vector<256xf32>
    vector.transfer_write %y, %Y[%i, %c0] {in_bounds = [true]} : vector<256xf32>, memref<64x256xf32>
  }
  return
}
