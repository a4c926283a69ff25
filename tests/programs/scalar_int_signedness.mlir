// REFERENCE: mlir22
// Signed vs unsigned integer ops on the same bits: divsi/divui, remsi/remui (sign of the
// remainder follows the dividend), ceildivsi/ceildivui/floordivsi, shrsi/shrui/shli, all ten
// cmpi predicates, minsi/maxsi/minui/maxui, andi/ori/xori, on i8/i32/i64/index scalars and an
// i16 vector. No division by zero, no INT_MIN / -1, shift amounts < bit width.
func.func @entry() {
  %a = arith.constant -7 : i32
  %b = arith.constant 2 : i32
  %q0 = arith.divsi %a, %b : i32
  vector.print %q0 : i32
  %q1 = arith.divui %a, %b : i32
  vector.print %q1 : i32
  %r0 = arith.remsi %a, %b : i32
  vector.print %r0 : i32
  %r1 = arith.remui %a, %b : i32
  vector.print %r1 : i32
  %q2 = arith.ceildivsi %a, %b : i32
  vector.print %q2 : i32
  %q3 = arith.floordivsi %a, %b : i32
  vector.print %q3 : i32
  %q4 = arith.ceildivui %a, %b : i32
  vector.print %q4 : i32
  %p = arith.constant 7 : i32
  %mb = arith.constant -2 : i32
  %q5 = arith.divsi %p, %mb : i32
  vector.print %q5 : i32
  %r2 = arith.remsi %p, %mb : i32
  vector.print %r2 : i32
  %q6 = arith.floordivsi %p, %mb : i32
  vector.print %q6 : i32
  %q7 = arith.ceildivsi %p, %mb : i32
  vector.print %q7 : i32

  %x = arith.constant -16 : i8
  %s2 = arith.constant 2 : i8
  %sh0 = arith.shrsi %x, %s2 : i8
  vector.print %sh0 : i8
  %sh1 = arith.shrui %x, %s2 : i8
  vector.print %sh1 : i8
  %s3 = arith.constant 3 : i8
  %sh2 = arith.shli %x, %s3 : i8
  vector.print %sh2 : i8

  %u = arith.constant -1 : i64
  %v = arith.constant 1 : i64
  %c0 = arith.cmpi eq, %u, %v : i64
  %c1 = arith.cmpi ne, %u, %v : i64
  %c2 = arith.cmpi slt, %u, %v : i64
  %c3 = arith.cmpi sle, %u, %v : i64
  %c4 = arith.cmpi sgt, %u, %v : i64
  %c5 = arith.cmpi sge, %u, %v : i64
  %c6 = arith.cmpi ult, %u, %v : i64
  %c7 = arith.cmpi ule, %u, %v : i64
  %c8 = arith.cmpi ugt, %u, %v : i64
  %c9 = arith.cmpi uge, %u, %v : i64
  %cv = vector.from_elements %c0, %c1, %c2, %c3, %c4, %c5, %c6, %c7, %c8, %c9 : vector<10xi1>
  vector.print %cv : vector<10xi1>

  %m0 = arith.minsi %u, %v : i64
  %m1 = arith.maxsi %u, %v : i64
  %m2 = arith.minui %u, %v : i64
  %m3 = arith.maxui %u, %v : i64
  vector.print %m0 : i64
  vector.print %m1 : i64
  vector.print %m2 : i64
  vector.print %m3 : i64

  %i = arith.constant 10 : index
  %j = arith.constant 3 : index
  %id = arith.divui %i, %j : index
  %ir = arith.remsi %i, %j : index
  %ic = arith.ceildivsi %i, %j : index
  vector.print %id : index
  vector.print %ir : index
  vector.print %ic : index

  %va = arith.constant dense<[-100, 100, -32768, 255]> : vector<4xi16>
  %vb = arith.constant dense<[7, -7, 3, 16]> : vector<4xi16>
  %vd = arith.divsi %va, %vb : vector<4xi16>
  vector.print %vd : vector<4xi16>
  %vu = arith.divui %va, %vb : vector<4xi16>
  vector.print %vu : vector<4xi16>
  %vr = arith.remsi %va, %vb : vector<4xi16>
  vector.print %vr : vector<4xi16>
  %vru = arith.remui %va, %vb : vector<4xi16>
  vector.print %vru : vector<4xi16>
  %vsh = arith.constant dense<[1, 2, 15, 4]> : vector<4xi16>
  %vs0 = arith.shrsi %va, %vsh : vector<4xi16>
  vector.print %vs0 : vector<4xi16>
  %vs1 = arith.shrui %va, %vsh : vector<4xi16>
  vector.print %vs1 : vector<4xi16>
  %vcmp = arith.cmpi ult, %va, %vb : vector<4xi16>
  vector.print %vcmp : vector<4xi1>
  %vand = arith.andi %va, %vb : vector<4xi16>
  %vor = arith.ori %va, %vb : vector<4xi16>
  %vxor = arith.xori %va, %vb : vector<4xi16>
  vector.print %vand : vector<4xi16>
  vector.print %vor : vector<4xi16>
  vector.print %vxor : vector<4xi16>
  return
}
