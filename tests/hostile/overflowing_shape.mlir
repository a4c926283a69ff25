func.func @f(%a: vector<99999999999999999999999xf32>) {
  return
}
