// REFERENCE: mlir22
// vector.scan, inclusive and exclusive, along dim 0 and dim 1, kinds add/mul/maxsi/minnumf,
// i32, f32, 1-D source with a 0-D initial value.
// MLIR's semantics (pinned here): inclusive ignores the initial value,
//   out[0] = src[0], out[i] = out[i-1] (+) src[i];
// exclusive starts from it: out[0] = init, out[i] = out[i-1] (+) src[i-1];
// the second result is out[last] in both cases (for exclusive it omits the last element).
func.func @entry() {
  %s = arith.constant dense<[[1, 2, 3, 4], [5, 6, 7, 8]]> : vector<2x4xi32>
  %init = arith.constant dense<[100, 200]> : vector<2xi32>
  %a:2 = vector.scan <add>, %s, %init {inclusive = true, reduction_dim = 1 : i64} : vector<2x4xi32>, vector<2xi32>
  vector.print %a#0 : vector<2x4xi32>
  vector.print %a#1 : vector<2xi32>
  %b:2 = vector.scan <add>, %s, %init {inclusive = false, reduction_dim = 1 : i64} : vector<2x4xi32>, vector<2xi32>
  vector.print %b#0 : vector<2x4xi32>
  vector.print %b#1 : vector<2xi32>

  %init0 = arith.constant dense<[10, 20, 30, 40]> : vector<4xi32>
  %c:2 = vector.scan <mul>, %s, %init0 {inclusive = true, reduction_dim = 0 : i64} : vector<2x4xi32>, vector<4xi32>
  vector.print %c#0 : vector<2x4xi32>
  vector.print %c#1 : vector<4xi32>
  %d:2 = vector.scan <mul>, %s, %init0 {inclusive = false, reduction_dim = 0 : i64} : vector<2x4xi32>, vector<4xi32>
  vector.print %d#0 : vector<2x4xi32>
  vector.print %d#1 : vector<4xi32>

  %m = arith.constant dense<[[3, -1, 7, 2, 9], [-5, -6, -2, -8, -1]]> : vector<2x5xi32>
  %mi = arith.constant dense<[0, -100]> : vector<2xi32>
  %e:2 = vector.scan <maxsi>, %m, %mi {inclusive = false, reduction_dim = 1 : i64} : vector<2x5xi32>, vector<2xi32>
  vector.print %e#0 : vector<2x5xi32>
  vector.print %e#1 : vector<2xi32>

  %f = arith.constant dense<[4.0, 2.5, -1.0, 0.5, 3.0]> : vector<5xf32>
  %fi = arith.constant dense<1.0> : vector<f32>
  %g:2 = vector.scan <minnumf>, %f, %fi {inclusive = true, reduction_dim = 0 : i64} : vector<5xf32>, vector<f32>
  vector.print %g#0 : vector<5xf32>
  vector.print %g#1 : vector<f32>
  %h:2 = vector.scan <add>, %f, %fi {inclusive = false, reduction_dim = 0 : i64} : vector<5xf32>, vector<f32>
  vector.print %h#0 : vector<5xf32>
  vector.print %h#1 : vector<f32>
  return
}
