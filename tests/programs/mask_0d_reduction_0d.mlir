// REFERENCE: mlir22
// 0-D masks (constant_mask [0|1] and create_mask with one bound) and vector.reduction over a
// 0-D vector, with and without an accumulator (MLIR 22 accepts rank 0 and 1).
func.func @entry() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %cm = arith.constant -3 : index
  %m0 = vector.constant_mask [0] : vector<i1>
  vector.print %m0 : vector<i1>
  %m1 = vector.constant_mask [1] : vector<i1>
  vector.print %m1 : vector<i1>
  %m2 = vector.create_mask %c0 : vector<i1>
  vector.print %m2 : vector<i1>
  %m3 = vector.create_mask %c1 : vector<i1>
  vector.print %m3 : vector<i1>
  %m4 = vector.create_mask %c5 : vector<i1>
  vector.print %m4 : vector<i1>
  %m5 = vector.create_mask %cm : vector<i1>
  vector.print %m5 : vector<i1>
  %v = arith.constant dense<3.5> : vector<f32>
  %r = vector.reduction <add>, %v : vector<f32> into f32
  vector.print %r : f32
  %acc = arith.constant 2.0 : f32
  %r2 = vector.reduction <mul>, %v, %acc : vector<f32> into f32
  vector.print %r2 : f32
  %w = arith.constant dense<-7> : vector<i32>
  %r3 = vector.reduction <maxsi>, %w : vector<i32> into i32
  vector.print %r3 : i32
  %a4 = arith.constant 3 : i32
  %r4 = vector.reduction <add>, %w, %a4 : vector<i32> into i32
  vector.print %r4 : i32
  return
}
