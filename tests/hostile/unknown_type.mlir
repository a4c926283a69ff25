func.func @f(%a: vector<4xq32>) {
  return
}
