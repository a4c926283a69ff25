// REFERENCE: mlir22
// Elementwise arith on n-D vectors of every integer width and index: addi/subi/muli
// (wrapping), divsi/divui/remsi/remui (no INT_MIN / -1, no division by zero),
// andi/ori/xori, shli/shrsi/shrui, minsi/maxui, cmpi -> vector<..xi1>, select with a vector
// condition and with a scalar i1 condition, addf/mulf/divf/negf on 2-D f32 and f64 (overflow to
// inf, underflow to 0), cmpf, and i1 vector logic (andi/ori/xori on masks).
func.func @entry() {
  %a = arith.constant dense<[[100, -100, 7], [127, -128, 0]]> : vector<2x3xi8>
  %b = arith.constant dense<[[100, 100, -2], [1, -3, 5]]> : vector<2x3xi8>
  %s = arith.addi %a, %b : vector<2x3xi8>
  vector.print %s : vector<2x3xi8>
  %d = arith.subi %a, %b : vector<2x3xi8>
  vector.print %d : vector<2x3xi8>
  %m = arith.muli %a, %b : vector<2x3xi8>
  vector.print %m : vector<2x3xi8>
  %q = arith.divsi %a, %b : vector<2x3xi8>
  vector.print %q : vector<2x3xi8>
  %qu = arith.divui %a, %b : vector<2x3xi8>
  vector.print %qu : vector<2x3xi8>
  %r = arith.remsi %a, %b : vector<2x3xi8>
  vector.print %r : vector<2x3xi8>
  %mx = arith.maxui %a, %b : vector<2x3xi8>
  vector.print %mx : vector<2x3xi8>
  %mn = arith.minsi %a, %b : vector<2x3xi8>
  vector.print %mn : vector<2x3xi8>
  %lt = arith.cmpi slt, %a, %b : vector<2x3xi8>
  vector.print %lt : vector<2x3xi1>
  %ult = arith.cmpi ult, %a, %b : vector<2x3xi8>
  vector.print %ult : vector<2x3xi1>
  %sel = arith.select %lt, %a, %b : vector<2x3xi1>, vector<2x3xi8>
  vector.print %sel : vector<2x3xi8>
  %mask_and = arith.andi %lt, %ult : vector<2x3xi1>
  %mask_or = arith.ori %lt, %ult : vector<2x3xi1>
  %mask_xor = arith.xori %lt, %ult : vector<2x3xi1>
  vector.print %mask_and : vector<2x3xi1>
  vector.print %mask_or : vector<2x3xi1>
  vector.print %mask_xor : vector<2x3xi1>

  %w = arith.constant dense<[1000, -1000, 4096, 32767]> : vector<4xi16>
  %ws = arith.constant dense<[3, 3, 4, 1]> : vector<4xi16>
  %w0 = arith.shli %w, %ws : vector<4xi16>
  vector.print %w0 : vector<4xi16>
  %w1 = arith.shrsi %w, %ws : vector<4xi16>
  vector.print %w1 : vector<4xi16>
  %w2 = arith.shrui %w, %ws : vector<4xi16>
  vector.print %w2 : vector<4xi16>
  %w3 = arith.xori %w, %ws : vector<4xi16>
  vector.print %w3 : vector<4xi16>

  %l = arith.constant dense<[4611686018427387904, -3, 5]> : vector<3xi64>
  %l2 = arith.constant dense<[4, -7, 3]> : vector<3xi64>
  %lm = arith.muli %l, %l2 : vector<3xi64>
  vector.print %lm : vector<3xi64>
  %lr = arith.remui %l, %l2 : vector<3xi64>
  vector.print %lr : vector<3xi64>

  %x = arith.constant dense<[1, 5, 9]> : vector<3xindex>
  %y = arith.constant dense<[2, 2, 2]> : vector<3xindex>
  %xs = arith.subi %x, %y : vector<3xindex>
  vector.print %xs : vector<3xindex>
  %xm = arith.muli %x, %y : vector<3xindex>
  vector.print %xm : vector<3xindex>

  %f = arith.constant dense<[[1.0, -2.0], [0.5, 3.0]]> : vector<2x2xf32>
  %g = arith.constant dense<[[4.0, 4.0], [-0.25, 3.0]]> : vector<2x2xf32>
  %fa = arith.addf %f, %g : vector<2x2xf32>
  vector.print %fa : vector<2x2xf32>
  %fm = arith.mulf %f, %g : vector<2x2xf32>
  vector.print %fm : vector<2x2xf32>
  %fd = arith.divf %f, %g : vector<2x2xf32>
  vector.print %fd : vector<2x2xf32>
  %fn = arith.negf %f : vector<2x2xf32>
  vector.print %fn : vector<2x2xf32>
  %fc = arith.cmpf oge, %f, %g : vector<2x2xf32>
  vector.print %fc : vector<2x2xi1>
  %t = arith.constant false
  %ss = arith.select %t, %f, %g : vector<2x2xf32>
  vector.print %ss : vector<2x2xf32>
  %dd = arith.constant dense<[1.0e300, -1.0e-300]> : vector<2xf64>
  %ddm = arith.mulf %dd, %dd : vector<2xf64>
  vector.print %ddm : vector<2xf64>
  return
}
