func.func @f(%a: vector<4xf32>) -> f32 {
  %0 = vector.extract %a[7] : f32 from vector<4xf32>
  return %0 : f32
}
