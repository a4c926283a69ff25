func.func @f(%a: vector<0xf32>) {
  return
}
