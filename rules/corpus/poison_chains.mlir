// Insert chains over ub.poison that overwrite every lane (rules/canonicalize/poison.egg).
func.func @chain2(%a: f32, %b: f32) -> vector<2xf32> {
  %p = ub.poison : vector<2xf32>
  %0 = vector.insert %a, %p[0] : f32 into vector<2xf32>
  %1 = vector.insert %b, %0[1] : f32 into vector<2xf32>
  return %1 : vector<2xf32>
}
func.func @chain4(%a: i32, %b: i32, %c: i32, %d: i32) -> vector<4xi32> {
  %p = ub.poison : vector<4xi32>
  %0 = vector.insert %a, %p[0] : i32 into vector<4xi32>
  %1 = vector.insert %b, %0[1] : i32 into vector<4xi32>
  %2 = vector.insert %c, %1[2] : i32 into vector<4xi32>
  %3 = vector.insert %d, %2[3] : i32 into vector<4xi32>
  return %3 : vector<4xi32>
}
