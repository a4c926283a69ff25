// REFERENCE: mlir22
// Signless integer arithmetic wraps modulo 2^N (no nsw/nuw flags): i8 add/sub/mul overflow,
// i16 and i32 overflow, i64 min - 1, negation of min, in scalars and vectors; a loop that
// doubles an i8 until it wraps; trunci/extsi/extui around the wrap; index arithmetic (64-bit
// here; printed unsigned): 0 - 1, a product past 2^63, signed vs unsigned compare of -1.
func.func @entry() {
  %a = arith.constant 100 : i8
  %b = arith.constant 50 : i8
  %s = arith.addi %a, %b : i8
  vector.print %s : i8
  %m = arith.muli %a, %b : i8
  vector.print %m : i8
  %min = arith.constant -128 : i8
  %one = arith.constant 1 : i8
  %d = arith.subi %min, %one : i8
  vector.print %d : i8
  %z = arith.constant 0 : i8
  %neg = arith.subi %z, %min : i8
  vector.print %neg : i8
  %h = arith.constant 30000 : i16
  %h2 = arith.addi %h, %h : i16
  vector.print %h2 : i16
  %w = arith.constant 2147483647 : i32
  %w1 = arith.constant 1 : i32
  %w2 = arith.addi %w, %w1 : i32
  vector.print %w2 : i32
  %big = arith.constant 65536 : i32
  %sq = arith.muli %big, %big : i32
  vector.print %sq : i32
  %l = arith.constant -9223372036854775808 : i64
  %l1 = arith.constant 1 : i64
  %l2 = arith.subi %l, %l1 : i64
  vector.print %l2 : i64

  %va = arith.constant dense<[120, -120, 64, 1]> : vector<4xi8>
  %vb = arith.constant dense<[10, -10, 2, -1]> : vector<4xi8>
  %vs = arith.addi %va, %vb : vector<4xi8>
  vector.print %vs : vector<4xi8>
  %vm = arith.muli %va, %vb : vector<4xi8>
  vector.print %vm : vector<4xi8>

  // Doubling loop: 1, 2, 4, ..., 64, -128, 0.
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c9 = arith.constant 9 : index
  %r = scf.for %i = %c0 to %c9 step %c1 iter_args(%x = %one) -> (i8) {
    vector.print %x : i8 punctuation <comma>
    %y = arith.addi %x, %x : i8
    scf.yield %y : i8
  }
  vector.print %r : i8

  %t = arith.constant 300 : i32
  %t8 = arith.trunci %t : i32 to i8
  vector.print %t8 : i8
  %e1 = arith.extsi %t8 : i8 to i32
  vector.print %e1 : i32
  %n8 = arith.constant -56 : i8
  %e2 = arith.extui %n8 : i8 to i32
  vector.print %e2 : i32
  %e3 = arith.extsi %n8 : i8 to i32
  vector.print %e3 : i32

  %i0 = arith.constant 0 : index
  %i1 = arith.constant 1 : index
  %im = arith.subi %i0, %i1 : index
  vector.print %im : index
  %ib = arith.constant 4611686018427387904 : index
  %i3 = arith.constant 3 : index
  %ip = arith.muli %ib, %i3 : index
  vector.print %ip : index
  %islt = arith.cmpi slt, %im, %i1 : index
  %iult = arith.cmpi ult, %im, %i1 : index
  vector.print %islt : i1
  vector.print %iult : i1
  %i64 = arith.index_cast %im : index to i64
  vector.print %i64 : i64
  return
}
