func.func @f() {
  func.func @g() {
    return
  }
  return
}
