// REFERENCE: mlir22
// NaN handling of the float combining kinds in vector.reduction and vector.multi_reduction:
// minnumf/maxnumf ignore a (quiet, positive) NaN operand unless all are NaN; minimumf/maximumf
// propagate it; add/mul propagate it. Also +-inf in reductions. Only positive quiet NaN inputs
// are used and no NaN is created by arithmetic (inf + -inf), so the printed NaN sign is well
// defined. Note hex float literals are bit patterns of the element width: f64 NaN is
// 0x7FF8000000000000 (0x7FC00000 as an f64 is the denormal 1.05893e-314).
func.func @entry() {
  %v = arith.constant dense<[3.0, 0x7FC00000, -1.0, 8.0]> : vector<4xf32>
  %r0 = vector.reduction <minnumf>, %v : vector<4xf32> into f32
  %r1 = vector.reduction <maxnumf>, %v : vector<4xf32> into f32
  %r2 = vector.reduction <minimumf>, %v : vector<4xf32> into f32
  %r3 = vector.reduction <maximumf>, %v : vector<4xf32> into f32
  %r4 = vector.reduction <add>, %v : vector<4xf32> into f32
  %r5 = vector.reduction <mul>, %v : vector<4xf32> into f32
  %rv = vector.from_elements %r0, %r1, %r2, %r3, %r4, %r5 : vector<6xf32>
  vector.print %rv : vector<6xf32>
  %nanacc = arith.constant 0x7FC00000 : f32
  %a0 = vector.reduction <maxnumf>, %v, %nanacc : vector<4xf32> into f32
  vector.print %a0 : f32
  %allnan = arith.constant dense<0x7FC00000> : vector<3xf32>
  %a1 = vector.reduction <minnumf>, %allnan : vector<3xf32> into f32
  vector.print %a1 : f32
  %inf = arith.constant dense<[0x7F800000, -5.0, 0xFF800000]> : vector<3xf32>
  %i0 = vector.reduction <maxnumf>, %inf : vector<3xf32> into f32
  %i1 = vector.reduction <minimumf>, %inf : vector<3xf32> into f32
  %i2 = vector.reduction <mul>, %inf : vector<3xf32> into f32
  %iv = vector.from_elements %i0, %i1, %i2 : vector<3xf32>
  vector.print %iv : vector<3xf32>

  %m = arith.constant dense<[[1.0, 0x7FF8000000000000, 3.0], [4.0, 5.0, -6.0]]> : vector<2x3xf64>
  %acc2 = arith.constant dense<0.0> : vector<2xf64>
  %m0 = vector.multi_reduction <maxnumf>, %m, %acc2 [1] : vector<2x3xf64> to vector<2xf64>
  vector.print %m0 : vector<2xf64>
  %m1 = vector.multi_reduction <maximumf>, %m, %acc2 [1] : vector<2x3xf64> to vector<2xf64>
  vector.print %m1 : vector<2xf64>
  %acc3 = arith.constant dense<[100.0, 100.0, 100.0]> : vector<3xf64>
  %m2 = vector.multi_reduction <minnumf>, %m, %acc3 [0] : vector<2x3xf64> to vector<3xf64>
  vector.print %m2 : vector<3xf64>
  %m3 = vector.multi_reduction <minimumf>, %m, %acc3 [0] : vector<2x3xf64> to vector<3xf64>
  vector.print %m3 : vector<3xf64>
  return
}
