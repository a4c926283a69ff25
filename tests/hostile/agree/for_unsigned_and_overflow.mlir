func.func @entry() {
  %lb = arith.constant 1 : index
  %ub = arith.constant -1 : index
  %st = arith.constant 4611686018427387904 : index
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %n = scf.for unsigned %i = %lb to %ub step %st iter_args(%a = %c0) -> (i32) {
    %b = arith.addi %a, %c1 : i32
    scf.yield %b : i32
  }
  vector.print %n : i32
  %big = arith.constant 9223372036854775800 : index
  %max = arith.constant 9223372036854775807 : index
  %c3 = arith.constant 3 : index
  %m = scf.for %i = %big to %max step %c3 iter_args(%a = %c0) -> (i32) {
    %b = arith.addi %a, %c1 : i32
    scf.yield %b : i32
  }
  vector.print %m : i32
  %lb8 = arith.constant 100 : i8
  %ub8 = arith.constant -56 : i8
  %st8 = arith.constant 50 : i8
  %k = scf.for unsigned %i = %lb8 to %ub8 step %st8 iter_args(%a = %c0) -> (i32) : i8 {
    %b = arith.addi %a, %c1 : i32
    scf.yield %b : i32
  }
  vector.print %k : i32
  return
}
