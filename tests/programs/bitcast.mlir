// REFERENCE: mlir22
// vector.bitcast (reinterpret the bits of each minor 1-D row, little-endian): i8 -> i16,
// i16 -> i8, i32 <-> f32 (1.0 = 0x3F800000, -0.0 = 0x80000000), f16 -> i16, f64 -> i64,
// i64 -> i32, f32 -> f16 x2, 2-D (per row), and 0-D; plus scalar arith.bitcast.
func.func @entry() {
  %a = arith.constant dense<[1, 2, 3, 4]> : vector<4xi8>
  %a16 = vector.bitcast %a : vector<4xi8> to vector<2xi16>
  vector.print %a16 : vector<2xi16>
  %b = arith.constant dense<[-2, 258]> : vector<2xi16>
  %b8 = vector.bitcast %b : vector<2xi16> to vector<4xi8>
  vector.print %b8 : vector<4xi8>
  %f = arith.constant dense<[1.0, -0.0, 0.5, -2.0]> : vector<4xf32>
  %fi = vector.bitcast %f : vector<4xf32> to vector<4xi32>
  vector.print %fi : vector<4xi32>
  %i = arith.constant dense<[1078530011, 2139095040, -8388608, 1]> : vector<4xi32>
  %if = vector.bitcast %i : vector<4xi32> to vector<4xf32>
  vector.print %if : vector<4xf32>
  %h = arith.constant dense<[1.0, -2.0, 65504.0]> : vector<3xf16>
  %hi = vector.bitcast %h : vector<3xf16> to vector<3xi16>
  vector.print %hi : vector<3xi16>
  %d = arith.constant dense<[1.0, -0.1]> : vector<2xf64>
  %di = vector.bitcast %d : vector<2xf64> to vector<2xi64>
  vector.print %di : vector<2xi64>
  %l = arith.constant dense<[4294967297, -1]> : vector<2xi64>
  %l32 = vector.bitcast %l : vector<2xi64> to vector<4xi32>
  vector.print %l32 : vector<4xi32>
  %ff = arith.constant dense<[1.0, 2.0]> : vector<2xf32>
  %fh = vector.bitcast %ff : vector<2xf32> to vector<4xf16>
  vector.print %fh : vector<4xf16>
  %m = arith.constant dense<[[1, 0, 0, 0, 255, 255, 255, 127], [0, 0, 128, 63, 0, 0, 0, 192]]> : vector<2x8xi8>
  %m32 = vector.bitcast %m : vector<2x8xi8> to vector<2x2xi32>
  vector.print %m32 : vector<2x2xi32>
  %mf = vector.bitcast %m : vector<2x8xi8> to vector<2x2xf32>
  vector.print %mf : vector<2x2xf32>
  %z = arith.constant dense<-1.0> : vector<f32>
  %zi = vector.bitcast %z : vector<f32> to vector<i32>
  vector.print %zi : vector<i32>

  %s = arith.constant 3.0 : f32
  %si = arith.bitcast %s : f32 to i32
  vector.print %si : i32
  %t = arith.constant -1 : i16
  %tf = arith.bitcast %t : i16 to f16
  vector.print %tf : f16
  %u = arith.constant 15360 : i16
  %uf = arith.bitcast %u : i16 to f16
  vector.print %uf : f16
  return
}
