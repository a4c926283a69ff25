// REFERENCE: mlir22
// vector.constant_mask and vector.create_mask: 1-D, 2-D and 3-D masks (1 inside the
// hyper-rectangle [0, size_d) on every dim), all-true and all-false, create_mask bounds clamped
// to [0, dim] (negative -> 0, too large -> dim), bounds computed at run time in a loop,
// and a mask used with arith.select.
func.func @entry() {
  %m0 = vector.constant_mask [3] : vector<5xi1>
  vector.print %m0 : vector<5xi1>
  %m1 = vector.constant_mask [2, 3] : vector<4x3xi1>
  vector.print %m1 : vector<4x3xi1>
  %m2 = vector.constant_mask [1, 2, 2] : vector<2x3x2xi1>
  vector.print %m2 : vector<2x3x2xi1>
  %m3 = vector.constant_mask [0, 0] : vector<2x2xi1>
  vector.print %m3 : vector<2x2xi1>
  %m4 = vector.constant_mask [2, 4] : vector<2x4xi1>
  vector.print %m4 : vector<2x4xi1>

  %cm1 = arith.constant -1 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c9 = arith.constant 9 : index
  %k0 = vector.create_mask %c2 : vector<4xi1>
  vector.print %k0 : vector<4xi1>
  %k1 = vector.create_mask %c9, %c2 : vector<2x3xi1>
  vector.print %k1 : vector<2x3xi1>
  %k2 = vector.create_mask %cm1, %c2 : vector<2x3xi1>
  vector.print %k2 : vector<2x3xi1>
  %k3 = vector.create_mask %c1, %c9, %c1 : vector<2x2x3xi1>
  vector.print %k3 : vector<2x2x3xi1>
  %k4 = vector.create_mask %c9 : vector<3xi1>
  vector.print %k4 : vector<3xi1>

  // Bounds from a loop: i = 0..4 -> masks of i ones.
  scf.for %i = %c0 to %c4 step %c1 {
    %k = vector.create_mask %i : vector<3xi1>
    vector.print %k : vector<3xi1>
  }

  %a = arith.constant dense<[1, 2, 3, 4, 5]> : vector<5xi32>
  %b = arith.constant dense<[-1, -2, -3, -4, -5]> : vector<5xi32>
  %sel = arith.select %m0, %a, %b : vector<5xi1>, vector<5xi32>
  vector.print %sel : vector<5xi32>
  return
}
