// REFERENCE: mlir22
// vector.multi_reduction on integers: kinds add, mul, minsi, maxsi, minui, maxui, and, or, xor
// over dims [0], [1], [0, 1] (-> scalar) of i32 and i8 sources (i8 add/mul wrap around;
// minui/maxui read -1 as 255), an i1 source (and/or/xor), and an index source.
func.func @entry() {
  %src = arith.constant dense<[[3, -7, 12, 0], [5, 6, -1, 9], [-2, 4, 8, 1]]> : vector<3x4xi32>
  %a4 = arith.constant dense<[1, 2, 3, 4]> : vector<4xi32>
  %a3 = arith.constant dense<[0, 10, -10]> : vector<3xi32>
  %s = arith.constant 100 : i32
  %one = arith.constant 1 : i32
  %ones = arith.constant dense<-1> : vector<4xi32>

  %r0 = vector.multi_reduction <add>, %src, %a4 [0] : vector<3x4xi32> to vector<4xi32>
  vector.print %r0 : vector<4xi32>
  %r1 = vector.multi_reduction <add>, %src, %a3 [1] : vector<3x4xi32> to vector<3xi32>
  vector.print %r1 : vector<3xi32>
  %r2 = vector.multi_reduction <add>, %src, %s [0, 1] : vector<3x4xi32> to i32
  vector.print %r2 : i32
  %r3 = vector.multi_reduction <mul>, %src, %a4 [0] : vector<3x4xi32> to vector<4xi32>
  vector.print %r3 : vector<4xi32>
  %r4 = vector.multi_reduction <minsi>, %src, %a3 [1] : vector<3x4xi32> to vector<3xi32>
  vector.print %r4 : vector<3xi32>
  %r5 = vector.multi_reduction <maxsi>, %src, %a4 [0] : vector<3x4xi32> to vector<4xi32>
  vector.print %r5 : vector<4xi32>
  %r6 = vector.multi_reduction <minui>, %src, %a3 [1] : vector<3x4xi32> to vector<3xi32>
  vector.print %r6 : vector<3xi32>
  %r7 = vector.multi_reduction <maxui>, %src, %a4 [0] : vector<3x4xi32> to vector<4xi32>
  vector.print %r7 : vector<4xi32>
  %r8 = vector.multi_reduction <and>, %src, %ones [0] : vector<3x4xi32> to vector<4xi32>
  vector.print %r8 : vector<4xi32>
  %r9 = vector.multi_reduction <or>, %src, %a3 [1] : vector<3x4xi32> to vector<3xi32>
  vector.print %r9 : vector<3xi32>
  %r10 = vector.multi_reduction <xor>, %src, %one [0, 1] : vector<3x4xi32> to i32
  vector.print %r10 : i32

  %b = arith.constant dense<[[100, -1, 7], [100, 2, -128], [1, 3, 127]]> : vector<3x3xi8>
  %b3 = arith.constant dense<0> : vector<3xi8>
  %b1 = arith.constant dense<1> : vector<3xi8>
  %q0 = vector.multi_reduction <add>, %b, %b3 [0] : vector<3x3xi8> to vector<3xi8>
  vector.print %q0 : vector<3xi8>
  %q1 = vector.multi_reduction <mul>, %b, %b1 [1] : vector<3x3xi8> to vector<3xi8>
  vector.print %q1 : vector<3xi8>
  %q2 = vector.multi_reduction <maxui>, %b, %b3 [0] : vector<3x3xi8> to vector<3xi8>
  vector.print %q2 : vector<3xi8>
  %q3 = vector.multi_reduction <minsi>, %b, %b3 [1] : vector<3x3xi8> to vector<3xi8>
  vector.print %q3 : vector<3xi8>

  %m = arith.constant dense<[[true, true, false], [true, false, false]]> : vector<2x3xi1>
  %t3 = arith.constant dense<true> : vector<3xi1>
  %f2 = arith.constant dense<false> : vector<2xi1>
  %ft = arith.constant dense<[false, true]> : vector<2xi1>
  %k0 = vector.multi_reduction <and>, %m, %t3 [0] : vector<2x3xi1> to vector<3xi1>
  vector.print %k0 : vector<3xi1>
  %k1 = vector.multi_reduction <or>, %m, %f2 [1] : vector<2x3xi1> to vector<2xi1>
  vector.print %k1 : vector<2xi1>
  %k2 = vector.multi_reduction <xor>, %m, %ft [1] : vector<2x3xi1> to vector<2xi1>
  vector.print %k2 : vector<2xi1>

  %x = arith.constant dense<[[1, 2], [30, 40]]> : vector<2x2xindex>
  %xa = arith.constant dense<[5, 6]> : vector<2xindex>
  %xr = vector.multi_reduction <add>, %x, %xa [1] : vector<2x2xindex> to vector<2xindex>
  vector.print %xr : vector<2xindex>
  return
}
