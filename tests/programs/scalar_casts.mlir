// REFERENCE: mlir22
// arith casts on scalars and vectors: index_cast (index <-> i32/i64, sign-extending),
// index_castui, sitofp / uitofp (same bits, different value: i8 -1 -> -1.0 vs 255.0; i32 ->
// f32 rounding of 16777217), fptosi / fptoui (truncation toward zero, in range only),
// extf (f16 -> f32 -> f64, exact), truncf (f64 -> f32 -> f16, round to nearest even, and
// overflow to inf), extsi / extui / trunci, bitcast.
func.func @entry() {
  %i = arith.constant -5 : i32
  %ix = arith.index_cast %i : i32 to index
  vector.print %ix : index
  %ixu = arith.index_castui %i : i32 to index
  vector.print %ixu : index
  %big = arith.constant 4294967301 : index
  %b32 = arith.index_cast %big : index to i32
  vector.print %b32 : i32
  %l = arith.index_cast %ix : index to i64
  vector.print %l : i64

  %m1 = arith.constant -1 : i8
  %f0 = arith.sitofp %m1 : i8 to f32
  %f1 = arith.uitofp %m1 : i8 to f32
  vector.print %f0 : f32
  vector.print %f1 : f32
  %odd = arith.constant 16777217 : i32
  %f2 = arith.sitofp %odd : i32 to f32
  %f2i = arith.fptosi %f2 : f32 to i64
  vector.print %f2i : i64
  %u64 = arith.constant -1 : i64
  %f3 = arith.uitofp %u64 : i64 to f64
  vector.print %f3 : f64
  %f4 = arith.sitofp %u64 : i64 to f16
  vector.print %f4 : f16

  %x = arith.constant -3.99 : f32
  %x0 = arith.fptosi %x : f32 to i32
  vector.print %x0 : i32
  %y = arith.constant 3.99 : f64
  %y0 = arith.fptoui %y : f64 to i8
  vector.print %y0 : i8
  %y1 = arith.constant 250.5 : f32
  %y2 = arith.fptoui %y1 : f32 to i8
  vector.print %y2 : i8
  %y3 = arith.fptosi %y1 : f32 to i16
  vector.print %y3 : i16

  %h = arith.constant 0.1 : f16
  %hf = arith.extf %h : f16 to f32
  %hd = arith.extf %hf : f32 to f64
  vector.print %hd : f64
  %dd = arith.constant 0.1 : f64
  %df = arith.truncf %dd : f64 to f32
  %dff = arith.extf %df : f32 to f64
  vector.print %dff : f64
  %diff = arith.subf %dff, %dd : f64
  vector.print %diff : f64
  %dh = arith.truncf %dd : f64 to f16
  vector.print %dh : f16
  %big2 = arith.constant 1.0e6 : f32
  %bh = arith.truncf %big2 : f32 to f16
  vector.print %bh : f16
  %tie = arith.constant 2049.0 : f32
  %th = arith.truncf %tie : f32 to f16
  vector.print %th : f16
  %tie2 = arith.constant 2051.0 : f32
  %th2 = arith.truncf %tie2 : f32 to f16
  vector.print %th2 : f16
  %dbig = arith.constant 1.0e300 : f64
  %dbf = arith.truncf %dbig : f64 to f32
  vector.print %dbf : f32

  %v = arith.constant dense<[-2, -1, 0, 127]> : vector<4xi8>
  %ve = arith.extsi %v : vector<4xi8> to vector<4xi32>
  vector.print %ve : vector<4xi32>
  %vu = arith.extui %v : vector<4xi8> to vector<4xi32>
  vector.print %vu : vector<4xi32>
  %vf = arith.uitofp %v : vector<4xi8> to vector<4xf32>
  vector.print %vf : vector<4xf32>
  %vs = arith.sitofp %v : vector<4xi8> to vector<4xf64>
  vector.print %vs : vector<4xf64>
  %w = arith.constant dense<[70000, -70000, 65535, 32768]> : vector<4xi32>
  %wt = arith.trunci %w : vector<4xi32> to vector<4xi16>
  vector.print %wt : vector<4xi16>
  %b1 = arith.trunci %w : vector<4xi32> to vector<4xi1>
  vector.print %b1 : vector<4xi1>
  %bt = arith.constant dense<[true, false]> : vector<2xi1>
  %bse = arith.extsi %bt : vector<2xi1> to vector<2xi8>
  vector.print %bse : vector<2xi8>
  %bue = arith.extui %bt : vector<2xi1> to vector<2xi8>
  vector.print %bue : vector<2xi8>
  %fv = arith.constant dense<[-1.5, 2.75, 100.0]> : vector<3xf32>
  %fi = arith.fptosi %fv : vector<3xf32> to vector<3xi8>
  vector.print %fi : vector<3xi8>
  %fh = arith.truncf %fv : vector<3xf32> to vector<3xf16>
  vector.print %fh : vector<3xf16>
  %vx = arith.constant dense<[1, 2]> : vector<2xindex>
  %vx32 = arith.index_cast %vx : vector<2xindex> to vector<2xi32>
  vector.print %vx32 : vector<2xi32>
  %bits = arith.bitcast %fv : vector<3xf32> to vector<3xi32>
  vector.print %bits : vector<3xi32>
  return
}
