// REFERENCE: mlir22
// vector.multi_reduction on floats: kinds add, mul, minnumf, maxnumf, minimumf, maximumf over
// several dim sets of a 2x3x4 f32 source ([0], [1], [2], [0, 2], [1, 2], all dims -> scalar),
// f64 and f16 sources; result = kind(acc, reduce(src)). Values are exact in every type.
func.func @entry() {
  %src = arith.constant dense<[[[1.0, 2.0, 3.0, 4.0], [0.5, -1.0, 6.0, 2.0], [-3.0, 8.0, 1.0, 0.25]],
                               [[2.0, 2.0, -2.0, 1.0], [4.0, 1.0, 0.5, -8.0], [1.0, 1.0, 1.0, 16.0]]]> : vector<2x3x4xf32>
  %a34 = arith.constant dense<0.0> : vector<3x4xf32>
  %a24 = arith.constant dense<[[1.0, 1.0, 1.0, 1.0], [2.0, 2.0, 2.0, 2.0]]> : vector<2x4xf32>
  %a23 = arith.constant dense<[[10.0, 20.0, 30.0], [-10.0, -20.0, -30.0]]> : vector<2x3xf32>
  %a3 = arith.constant dense<[100.0, 200.0, 300.0]> : vector<3xf32>
  %a3b = arith.constant dense<[5.0, -100.0, 7.0]> : vector<3xf32>
  %a2 = arith.constant dense<[0.5, -0.5]> : vector<2xf32>
  %s0 = arith.constant 1000.0 : f32
  %s1 = arith.constant 1.0 : f32

  %r0 = vector.multi_reduction <add>, %src, %a34 [0] : vector<2x3x4xf32> to vector<3x4xf32>
  vector.print %r0 : vector<3x4xf32>
  %r1 = vector.multi_reduction <add>, %src, %a24 [1] : vector<2x3x4xf32> to vector<2x4xf32>
  vector.print %r1 : vector<2x4xf32>
  %r2 = vector.multi_reduction <add>, %src, %a23 [2] : vector<2x3x4xf32> to vector<2x3xf32>
  vector.print %r2 : vector<2x3xf32>
  %r3 = vector.multi_reduction <add>, %src, %a3 [0, 2] : vector<2x3x4xf32> to vector<3xf32>
  vector.print %r3 : vector<3xf32>
  %r4 = vector.multi_reduction <add>, %src, %a2 [1, 2] : vector<2x3x4xf32> to vector<2xf32>
  vector.print %r4 : vector<2xf32>
  %r5 = vector.multi_reduction <add>, %src, %s0 [0, 1, 2] : vector<2x3x4xf32> to f32
  vector.print %r5 : f32

  %m0 = vector.multi_reduction <mul>, %src, %a23 [2] : vector<2x3x4xf32> to vector<2x3xf32>
  vector.print %m0 : vector<2x3xf32>
  %m1 = vector.multi_reduction <mul>, %src, %s1 [0, 1, 2] : vector<2x3x4xf32> to f32
  vector.print %m1 : f32
  %n0 = vector.multi_reduction <minnumf>, %src, %a24 [1] : vector<2x3x4xf32> to vector<2x4xf32>
  vector.print %n0 : vector<2x4xf32>
  %n1 = vector.multi_reduction <maxnumf>, %src, %a3b [0, 2] : vector<2x3x4xf32> to vector<3xf32>
  vector.print %n1 : vector<3xf32>
  %n2 = vector.multi_reduction <minimumf>, %src, %a34 [0] : vector<2x3x4xf32> to vector<3x4xf32>
  vector.print %n2 : vector<3x4xf32>
  %n3 = vector.multi_reduction <maximumf>, %src, %s0 [0, 1, 2] : vector<2x3x4xf32> to f32
  vector.print %n3 : f32
  %n4 = vector.multi_reduction <maximumf>, %src, %a2 [1, 2] : vector<2x3x4xf32> to vector<2xf32>
  vector.print %n4 : vector<2xf32>

  %d = arith.constant dense<[[0.125, 3.0], [-7.0, 2.5]]> : vector<2x2xf64>
  %da = arith.constant dense<[1.0, 2.0]> : vector<2xf64>
  %dr = vector.multi_reduction <add>, %d, %da [0] : vector<2x2xf64> to vector<2xf64>
  vector.print %dr : vector<2xf64>
  %dm = vector.multi_reduction <mul>, %d, %da [1] : vector<2x2xf64> to vector<2xf64>
  vector.print %dm : vector<2xf64>

  %h = arith.constant dense<[[1.5, 2.0, -0.25], [4.0, 0.5, 8.0]]> : vector<2x3xf16>
  %ha = arith.constant dense<[0.0, 1.0]> : vector<2xf16>
  %hr = vector.multi_reduction <add>, %h, %ha [1] : vector<2x3xf16> to vector<2xf16>
  vector.print %hr : vector<2xf16>
  %hb = arith.constant dense<0.0> : vector<3xf16>
  %hm = vector.multi_reduction <maxnumf>, %h, %hb [0] : vector<2x3xf16> to vector<3xf16>
  vector.print %hm : vector<3xf16>
  return
}
