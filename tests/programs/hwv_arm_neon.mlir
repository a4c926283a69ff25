// REFERENCE: hand -- arm_neon ops run only on AArch64 (this corpus runs on x86); hand_checks/hwv_arm_neon.mlir computes the same with arith/vector ops
// NEON HWV ops: sdot (flat and 2-D: i8 x i8 dot products of 4 lanes into i32 lanes),
// smull (widening multiply), faddp (pairwise add: a's pairs, then b's).
func.func @entry() {
  %acc = arith.constant dense<[100, -7, 2147483647, 0]> : vector<4xi32>
  %a = arith.constant dense<[1, 2, 3, 4, -128, -128, 127, 0, 1, 1, 1, 1, -1, 2, -3, 4]> : vector<16xi8>
  %b = arith.constant dense<[5, 6, 7, 8, -128, 127, 127, 9, 1, 0, 0, 0, 10, 10, 10, 10]> : vector<16xi8>
  %d = arm_neon.intr.sdot %acc, %a, %b : vector<16xi8>, vector<16xi8> to vector<4xi32>
  vector.print %d : vector<4xi32>
  %acc2 = arith.constant dense<[1, -1]> : vector<2xi32>
  %a2 = arith.constant dense<[[1, 2, 3, 4], [-5, 6, -7, 8]]> : vector<2x4xi8>
  %b2 = arith.constant dense<[[-1, -1, -1, -1], [2, 2, 2, 2]]> : vector<2x4xi8>
  %d2 = arm_neon.2d.sdot %acc2, %a2, %b2 : vector<2x4xi8>, vector<2x4xi8> to vector<2xi32>
  vector.print %d2 : vector<2xi32>
  %x = arith.constant dense<[-128, 127, 3, -4, 100, 0, -1, 50]> : vector<8xi8>
  %y = arith.constant dense<[-128, 127, -5, -4, 100, 9, -1, -3]> : vector<8xi8>
  %m = arm_neon.intr.smull %x, %y : vector<8xi8> to vector<8xi16>
  vector.print %m : vector<8xi16>
  %x2 = arith.constant dense<[65536, -2147483648]> : vector<2xi32>
  %m2 = arm_neon.intr.smull %x2, %x2 : vector<2xi32> to vector<2xi64>
  vector.print %m2 : vector<2xi64>
  %f = arith.constant dense<[1.0, 2.5, -3.0, 0.25]> : vector<4xf32>
  %g = arith.constant dense<[1.0e8, 1.0, -0.0, -0.0]> : vector<4xf32>
  %p = llvm.call_intrinsic "llvm.aarch64.neon.faddp.v4f32"(%f, %g) : (vector<4xf32>, vector<4xf32>) -> vector<4xf32>
  vector.print %p : vector<4xf32>
  return
}
