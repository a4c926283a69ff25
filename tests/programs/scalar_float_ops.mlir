// REFERENCE: mlir22
// Float arith on f32/f64/f16 scalars and vectors: addf, subf, mulf, divf, remf (sign of the
// dividend, like C fmod), negf, maximumf/minimumf (NaN-propagating; -0 < +0), maxnumf/minnumf
// (NaN-ignoring), all 16 cmpf predicates on ordered and NaN operands, select; f64 precision
// (0.1 + 0.2 printed with %g), f16 rounding of results (1/3 in f16, 2049 -> 2048).
func.func @entry() {
  %a = arith.constant 7.5 : f32
  %b = arith.constant -2.0 : f32
  %r0 = arith.addf %a, %b : f32
  %r1 = arith.subf %a, %b : f32
  %r2 = arith.mulf %a, %b : f32
  %r3 = arith.divf %a, %b : f32
  %r4 = arith.remf %a, %b : f32
  %r5 = arith.negf %a : f32
  %nb = arith.negf %a : f32
  %r6 = arith.remf %nb, %b : f32
  %rv = vector.from_elements %r0, %r1, %r2, %r3, %r4, %r5, %r6 : vector<7xf32>
  vector.print %rv : vector<7xf32>

  %nan = arith.constant 0x7FC00000 : f32
  %pz = arith.constant 0.0 : f32
  %nz = arith.constant -0.0 : f32
  %m0 = arith.maximumf %a, %nan : f32
  %m1 = arith.maxnumf %a, %nan : f32
  %m2 = arith.minimumf %nan, %b : f32
  %m3 = arith.minnumf %nan, %b : f32
  %m4 = arith.maximumf %pz, %nz : f32
  %m5 = arith.minimumf %pz, %nz : f32
  %m6 = arith.maximumf %a, %b : f32
  %m7 = arith.minnumf %a, %b : f32
  %mv = vector.from_elements %m0, %m1, %m2, %m3, %m4, %m5, %m6, %m7 : vector<8xf32>
  vector.print %mv : vector<8xf32>

  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  // cmpf predicates in the order: false oeq ogt oge olt ole one ord ueq ugt uge ult ule une uno true
  %p0 = arith.cmpf false, %one, %two : f32
  %p1 = arith.cmpf oeq, %one, %two : f32
  %p2 = arith.cmpf ogt, %one, %two : f32
  %p3 = arith.cmpf oge, %one, %two : f32
  %p4 = arith.cmpf olt, %one, %two : f32
  %p5 = arith.cmpf ole, %one, %two : f32
  %p6 = arith.cmpf one, %one, %two : f32
  %p7 = arith.cmpf ord, %one, %two : f32
  %p8 = arith.cmpf ueq, %one, %two : f32
  %p9 = arith.cmpf ugt, %one, %two : f32
  %p10 = arith.cmpf uge, %one, %two : f32
  %p11 = arith.cmpf ult, %one, %two : f32
  %p12 = arith.cmpf ule, %one, %two : f32
  %p13 = arith.cmpf une, %one, %two : f32
  %p14 = arith.cmpf uno, %one, %two : f32
  %p15 = arith.cmpf true, %one, %two : f32
  %pv = vector.from_elements %p0, %p1, %p2, %p3, %p4, %p5, %p6, %p7, %p8, %p9, %p10, %p11, %p12, %p13, %p14, %p15 : vector<16xi1>
  vector.print %pv : vector<16xi1>
  %n0 = arith.cmpf false, %one, %nan : f32
  %n1 = arith.cmpf oeq, %one, %nan : f32
  %n2 = arith.cmpf ogt, %one, %nan : f32
  %n3 = arith.cmpf oge, %one, %nan : f32
  %n4 = arith.cmpf olt, %one, %nan : f32
  %n5 = arith.cmpf ole, %one, %nan : f32
  %n6 = arith.cmpf one, %one, %nan : f32
  %n7 = arith.cmpf ord, %one, %nan : f32
  %n8 = arith.cmpf ueq, %one, %nan : f32
  %n9 = arith.cmpf ugt, %one, %nan : f32
  %n10 = arith.cmpf uge, %one, %nan : f32
  %n11 = arith.cmpf ult, %one, %nan : f32
  %n12 = arith.cmpf ule, %one, %nan : f32
  %n13 = arith.cmpf une, %one, %nan : f32
  %n14 = arith.cmpf uno, %one, %nan : f32
  %n15 = arith.cmpf true, %one, %nan : f32
  %nv = vector.from_elements %n0, %n1, %n2, %n3, %n4, %n5, %n6, %n7, %n8, %n9, %n10, %n11, %n12, %n13, %n14, %n15 : vector<16xi1>
  vector.print %nv : vector<16xi1>
  %zeq = arith.cmpf oeq, %pz, %nz : f32
  vector.print %zeq : i1

  %d1 = arith.constant 0.1 : f64
  %d2 = arith.constant 0.2 : f64
  %d3 = arith.addf %d1, %d2 : f64
  vector.print %d3 : f64
  %d03 = arith.constant 0.3 : f64
  %deq = arith.cmpf oeq, %d3, %d03 : f64
  vector.print %deq : i1
  %dd = arith.subf %d3, %d03 : f64
  vector.print %dd : f64
  %f1 = arith.constant 0.1 : f32
  %f2 = arith.constant 0.2 : f32
  %f3 = arith.addf %f1, %f2 : f32
  %f03 = arith.constant 0.3 : f32
  %feq = arith.cmpf oeq, %f3, %f03 : f32
  vector.print %feq : i1

  %h1 = arith.constant 1.0 : f16
  %h3 = arith.constant 3.0 : f16
  %hq = arith.divf %h1, %h3 : f16
  vector.print %hq : f16
  %hb = arith.constant 2048.0 : f16
  %hs = arith.addf %hb, %h1 : f16
  vector.print %hs : f16
  %hm = arith.constant 300.0 : f16
  %hmm = arith.mulf %hm, %hm : f16
  vector.print %hmm : f16

  %va = arith.constant dense<[1.0, -1.0, 0.0, 3.5]> : vector<4xf32>
  %vb = arith.constant dense<[2.0, -1.0, 0x7FC00000, -3.5]> : vector<4xf32>
  %vc = arith.cmpf olt, %va, %vb : vector<4xf32>
  vector.print %vc : vector<4xi1>
  %vsel = arith.select %vc, %va, %vb : vector<4xi1>, vector<4xf32>
  vector.print %vsel : vector<4xf32>
  %vmx = arith.maxnumf %va, %vb : vector<4xf32>
  vector.print %vmx : vector<4xf32>
  %vd = arith.divf %va, %vb : vector<4xf32>
  vector.print %vd : vector<4xf32>
  return
}
