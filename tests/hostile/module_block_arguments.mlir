func.func @f() {
  "builtin.module"() ({
  ^bb0(%a: i32):
  }) : () -> ()
  return
}
