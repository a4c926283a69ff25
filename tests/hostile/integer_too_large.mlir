func.func @f() -> i8 {
  %0 = arith.constant 300 : i8
  return %0 : i8
}
