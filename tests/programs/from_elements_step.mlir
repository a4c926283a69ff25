// REFERENCE: mlir22
// vector.from_elements (scalars in row-major order: 1-D, 2-D, 3-D, 0-D, i1/i8/f16/index,
// scalars computed at run time) and vector.step (0, 1, ..., N-1 as index, used with
// index_cast, arithmetic and comparisons to build iota-like vectors and masks).
func.func @entry() {
  %a = arith.constant 1.5 : f32
  %b = arith.constant -2.0 : f32
  %c = arith.constant 0.25 : f32
  %v0 = vector.from_elements %a, %b, %c : vector<3xf32>
  vector.print %v0 : vector<3xf32>
  %v1 = vector.from_elements %a, %b, %c, %c, %b, %a : vector<2x3xf32>
  vector.print %v1 : vector<2x3xf32>
  %i1 = arith.constant 1 : i8
  %i2 = arith.constant -2 : i8
  %v2 = vector.from_elements %i1, %i2, %i2, %i1, %i1, %i1, %i2, %i2 : vector<2x2x2xi8>
  vector.print %v2 : vector<2x2x2xi8>
  %v3 = vector.from_elements %a : vector<f32>
  vector.print %v3 : vector<f32>
  %t = arith.constant true
  %f = arith.constant false
  %v4 = vector.from_elements %t, %f, %f, %t : vector<4xi1>
  vector.print %v4 : vector<4xi1>
  %h = arith.constant 3.0 : f16
  %v5 = vector.from_elements %h, %h : vector<1x2xf16>
  vector.print %v5 : vector<1x2xf16>
  %x = arith.addf %a, %b : f32
  %y = arith.mulf %a, %c : f32
  %v6 = vector.from_elements %x, %y : vector<2xf32>
  vector.print %v6 : vector<2xf32>
  %k = arith.constant 7 : index
  %v7 = vector.from_elements %k, %k, %k : vector<3xindex>
  vector.print %v7 : vector<3xindex>

  %s0 = vector.step : vector<8xindex>
  vector.print %s0 : vector<8xindex>
  %s1 = vector.step : vector<1xindex>
  vector.print %s1 : vector<1xindex>
  %s32 = arith.index_cast %s0 : vector<8xindex> to vector<8xi32>
  %three = arith.constant dense<3> : vector<8xi32>
  %sq = arith.muli %s32, %three : vector<8xi32>
  vector.print %sq : vector<8xi32>
  %sf = arith.sitofp %s32 : vector<8xi32> to vector<8xf32>
  %half = arith.constant dense<0.5> : vector<8xf32>
  %sh = arith.mulf %sf, %half : vector<8xf32>
  vector.print %sh : vector<8xf32>
  %c5 = arith.constant 5 : index
  %b5 = vector.broadcast %c5 : index to vector<8xindex>
  %lt = arith.cmpi ult, %s0, %b5 : vector<8xindex>
  vector.print %lt : vector<8xi1>
  %off = arith.addi %s0, %b5 : vector<8xindex>
  vector.print %off : vector<8xindex>
  return
}
