func.func @f() {
  "builtin.module"() ({
  }) : () -> ()
  return
}
