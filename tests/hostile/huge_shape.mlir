func.func @entry() {
  %0 = arith.constant dense<1.0> : vector<1000000000xf32>
  %1 = arith.addf %0, %0 : vector<1000000000xf32>
  %2 = vector.reduction <add>, %1 : vector<1000000000xf32> into f32
  vector.print %2 : f32
  return
}
