// REFERENCE: mlir22
// vector.reduction (1-D -> scalar) with every kind, with and without accumulator: floats
// (f32, f64, f16: add, mul, minnumf, maxnumf, minimumf, maximumf) and integers (i32, i8 with
// wrap-around, i64, i1, index: add, mul, minsi, maxsi, minui, maxui, and, or, xor).
// Values are exact so the reduction order does not matter.
func.func @entry() {
  %v = arith.constant dense<[1.5, -2.0, 4.0, 0.25, 8.0, -0.5, 3.0, 2.0]> : vector<8xf32>
  %acc = arith.constant 10.0 : f32
  %f0 = vector.reduction <add>, %v : vector<8xf32> into f32
  vector.print %f0 : f32
  %f1 = vector.reduction <add>, %v, %acc : vector<8xf32> into f32
  vector.print %f1 : f32
  %f2 = vector.reduction <mul>, %v : vector<8xf32> into f32
  vector.print %f2 : f32
  %f3 = vector.reduction <mul>, %v, %acc : vector<8xf32> into f32
  vector.print %f3 : f32
  %f4 = vector.reduction <minnumf>, %v : vector<8xf32> into f32
  vector.print %f4 : f32
  %f5 = vector.reduction <maxnumf>, %v, %acc : vector<8xf32> into f32
  vector.print %f5 : f32
  %f6 = vector.reduction <minimumf>, %v, %acc : vector<8xf32> into f32
  vector.print %f6 : f32
  %f7 = vector.reduction <maximumf>, %v : vector<8xf32> into f32
  vector.print %f7 : f32

  %d = arith.constant dense<[0.1, 0.2, 0.7]> : vector<3xf64>
  %d0 = vector.reduction <maxnumf>, %d : vector<3xf64> into f64
  vector.print %d0 : f64
  %dm = arith.constant dense<[0.5, 0.25, -16.0]> : vector<3xf64>
  %dacc = arith.constant 3.0 : f64
  %d1 = vector.reduction <mul>, %dm, %dacc : vector<3xf64> into f64
  vector.print %d1 : f64
  %h = arith.constant dense<[1.5, 2.25, -4.0, 0.125]> : vector<4xf16>
  %h0 = vector.reduction <add>, %h : vector<4xf16> into f16
  vector.print %h0 : f16
  %h1 = vector.reduction <minimumf>, %h : vector<4xf16> into f16
  vector.print %h1 : f16

  %i = arith.constant dense<[3, -7, 12, 0, 5, 6, -1, 9]> : vector<8xi32>
  %ia = arith.constant -100 : i32
  %i0 = vector.reduction <add>, %i : vector<8xi32> into i32
  vector.print %i0 : i32
  %i1 = vector.reduction <add>, %i, %ia : vector<8xi32> into i32
  vector.print %i1 : i32
  %ip = arith.constant dense<[3, -7, 12, 2]> : vector<4xi32>
  %i2 = vector.reduction <mul>, %ip, %ia : vector<4xi32> into i32
  vector.print %i2 : i32
  %i3 = vector.reduction <minsi>, %i : vector<8xi32> into i32
  vector.print %i3 : i32
  %i4 = vector.reduction <maxsi>, %i, %ia : vector<8xi32> into i32
  vector.print %i4 : i32
  %i5 = vector.reduction <minui>, %i : vector<8xi32> into i32
  vector.print %i5 : i32
  %i6 = vector.reduction <maxui>, %i : vector<8xi32> into i32
  vector.print %i6 : i32
  %i7 = vector.reduction <and>, %i, %ia : vector<8xi32> into i32
  vector.print %i7 : i32
  %i8 = vector.reduction <or>, %i : vector<8xi32> into i32
  vector.print %i8 : i32
  %i9 = vector.reduction <xor>, %i, %ia : vector<8xi32> into i32
  vector.print %i9 : i32

  %b = arith.constant dense<[100, 100, 27, -2]> : vector<4xi8>
  %b0 = vector.reduction <add>, %b : vector<4xi8> into i8
  vector.print %b0 : i8
  %b1 = vector.reduction <mul>, %b : vector<4xi8> into i8
  vector.print %b1 : i8
  %b2 = vector.reduction <maxui>, %b : vector<4xi8> into i8
  vector.print %b2 : i8
  %b3 = vector.reduction <minui>, %b : vector<4xi8> into i8
  vector.print %b3 : i8

  %l = arith.constant dense<[4000000000, -4000000000, 123456789012]> : vector<3xi64>
  %l0 = vector.reduction <add>, %l : vector<3xi64> into i64
  vector.print %l0 : i64
  %l1 = vector.reduction <minsi>, %l : vector<3xi64> into i64
  vector.print %l1 : i64

  %m = arith.constant dense<[true, false, true, true]> : vector<4xi1>
  %m0 = vector.reduction <and>, %m : vector<4xi1> into i1
  vector.print %m0 : i1
  %m1 = vector.reduction <or>, %m : vector<4xi1> into i1
  vector.print %m1 : i1
  %m2 = vector.reduction <xor>, %m : vector<4xi1> into i1
  vector.print %m2 : i1
  %m3 = vector.reduction <add>, %m : vector<4xi1> into i1
  vector.print %m3 : i1

  %x = arith.constant dense<[7, 11, 13]> : vector<3xindex>
  %xa = arith.constant 2 : index
  %x0 = vector.reduction <mul>, %x, %xa : vector<3xindex> into index
  vector.print %x0 : index
  %x1 = vector.reduction <maxui>, %x : vector<3xindex> into index
  vector.print %x1 : index
  return
}
