func.func @f() {
  vector.print str "no end
  return
}
