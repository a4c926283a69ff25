func.func @f() {
  %lb = arith.constant 0 : i8
  %ub = arith.constant 10 : i8
  %st = arith.constant 1 : i8
  scf.for %i = %lb to %ub step %st {
  }
  return
}
