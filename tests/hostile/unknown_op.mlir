func.func @f() {
  foo.frobnicate
  return
}
