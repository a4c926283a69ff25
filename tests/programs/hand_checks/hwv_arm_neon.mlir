// REFERENCE: mlir22
// Companion of hwv_arm_neon.mlir: the same values with arith/vector ops MLIR runs on x86.
func.func @entry() {
  %acc = arith.constant dense<[100, -7, 2147483647, 0]> : vector<4xi32>
  %a = arith.constant dense<[1, 2, 3, 4, -128, -128, 127, 0, 1, 1, 1, 1, -1, 2, -3, 4]> : vector<16xi8>
  %b = arith.constant dense<[5, 6, 7, 8, -128, 127, 127, 9, 1, 0, 0, 0, 10, 10, 10, 10]> : vector<16xi8>
  %ae = arith.extsi %a : vector<16xi8> to vector<16xi32>
  %be = arith.extsi %b : vector<16xi8> to vector<16xi32>
  %p = arith.muli %ae, %be : vector<16xi32>
  %p2 = vector.shape_cast %p : vector<16xi32> to vector<4x4xi32>
  %d = vector.multi_reduction <add>, %p2, %acc [1] : vector<4x4xi32> to vector<4xi32>
  vector.print %d : vector<4xi32>
  %acc2 = arith.constant dense<[1, -1]> : vector<2xi32>
  %a2 = arith.constant dense<[[1, 2, 3, 4], [-5, 6, -7, 8]]> : vector<2x4xi8>
  %b2 = arith.constant dense<[[-1, -1, -1, -1], [2, 2, 2, 2]]> : vector<2x4xi8>
  %a2e = arith.extsi %a2 : vector<2x4xi8> to vector<2x4xi32>
  %b2e = arith.extsi %b2 : vector<2x4xi8> to vector<2x4xi32>
  %q = arith.muli %a2e, %b2e : vector<2x4xi32>
  %d2 = vector.multi_reduction <add>, %q, %acc2 [1] : vector<2x4xi32> to vector<2xi32>
  vector.print %d2 : vector<2xi32>
  %x = arith.constant dense<[-128, 127, 3, -4, 100, 0, -1, 50]> : vector<8xi8>
  %y = arith.constant dense<[-128, 127, -5, -4, 100, 9, -1, -3]> : vector<8xi8>
  %xe = arith.extsi %x : vector<8xi8> to vector<8xi16>
  %ye = arith.extsi %y : vector<8xi8> to vector<8xi16>
  %m = arith.muli %xe, %ye : vector<8xi16>
  vector.print %m : vector<8xi16>
  %x2 = arith.constant dense<[65536, -2147483648]> : vector<2xi32>
  %x2e = arith.extsi %x2 : vector<2xi32> to vector<2xi64>
  %m2 = arith.muli %x2e, %x2e : vector<2xi64>
  vector.print %m2 : vector<2xi64>
  %f = arith.constant dense<[1.0, 2.5, -3.0, 0.25]> : vector<4xf32>
  %g = arith.constant dense<[1.0e8, 1.0, -0.0, -0.0]> : vector<4xf32>
  %ev = vector.shuffle %f, %g [0, 2, 4, 6] : vector<4xf32>, vector<4xf32>
  %od = vector.shuffle %f, %g [1, 3, 5, 7] : vector<4xf32>, vector<4xf32>
  %s = arith.addf %ev, %od : vector<4xf32>
  vector.print %s : vector<4xf32>
  return
}
