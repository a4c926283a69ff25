func.func @f(%a: vector<4xf32>, %m: vector<4x4xi1>) -> vector<4x4xf32> {
  %0 = vector.mask %m { vector.broadcast %a : vector<4xf32> to vector<4x4xf32> } : vector<4x4xi1> -> vector<4x4xf32>
  return %0 : vector<4x4xf32>
}
