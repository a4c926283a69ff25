func.func @"é"() -> i32 {
  %c = arith.constant 7 : i32
  return %c : i32
}
func.func @""() -> i32 {
  %c = arith.constant 8 : i32
  return %c : i32
}
func.func @entry() {
  %a = func.call @"é"() : () -> i32
  %b = func.call @""() : () -> i32
  vector.print %a : i32
  vector.print %b : i32
  return
}
