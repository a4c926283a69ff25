// REFERENCE: mlir22
// vector.shuffle: 1-D (concatenate v1 ++ v2 and pick by mask), different lengths, reversal,
// duplicates, picking only from v2, 2-D (selects leading-dim rows), 0-D inputs -> 1-D,
// i1 and f64 elements.
func.func @entry() {
  %a = arith.constant dense<[1, 2, 3, 4]> : vector<4xi32>
  %b = arith.constant dense<[10, 20]> : vector<2xi32>
  %s0 = vector.shuffle %a, %b [0, 4, 1, 5, 2, 3] : vector<4xi32>, vector<2xi32>
  vector.print %s0 : vector<6xi32>
  %s1 = vector.shuffle %a, %a [3, 2, 1, 0] : vector<4xi32>, vector<4xi32>
  vector.print %s1 : vector<4xi32>
  %s2 = vector.shuffle %a, %b [5, 5, 0, 0, 4] : vector<4xi32>, vector<2xi32>
  vector.print %s2 : vector<5xi32>
  %s3 = vector.shuffle %a, %b [2] : vector<4xi32>, vector<2xi32>
  vector.print %s3 : vector<1xi32>

  %m1 = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : vector<2x2xf32>
  %m2 = arith.constant dense<[[5.0, 6.0]]> : vector<1x2xf32>
  %s4 = vector.shuffle %m1, %m2 [2, 0, 1, 2] : vector<2x2xf32>, vector<1x2xf32>
  vector.print %s4 : vector<4x2xf32>

  %x = arith.constant dense<1.5> : vector<f32>
  %y = arith.constant dense<-2.5> : vector<f32>
  %s5 = vector.shuffle %x, %y [1, 0, 1] : vector<f32>, vector<f32>
  vector.print %s5 : vector<3xf32>

  %t = arith.constant dense<[true, false, false]> : vector<3xi1>
  %u = arith.constant dense<[true]> : vector<1xi1>
  %s6 = vector.shuffle %t, %u [3, 1, 0, 2] : vector<3xi1>, vector<1xi1>
  vector.print %s6 : vector<4xi1>

  %d = arith.constant dense<[0.1, 0.2]> : vector<2xf64>
  %s7 = vector.shuffle %d, %d [1, 2, 3, 0] : vector<2xf64>, vector<2xf64>
  vector.print %s7 : vector<4xf64>
  return
}
