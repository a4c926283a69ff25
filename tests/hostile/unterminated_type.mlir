func.func @f(%a: vector<4xf32) {
  return
}
