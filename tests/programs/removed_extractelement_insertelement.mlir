// REFERENCE: mlir19 -- vector.extractelement / vector.insertelement were removed in MLIR 22
// vector.extractelement (scalar at a dynamic position of a 1-D vector; position of type
// index, i32 or i8; 0-D form with []) and vector.insertelement (copy of a 1-D/0-D vector
// with one element replaced), on f32/i16/f64, with positions from a loop.
func.func @entry() {
  %v = arith.constant dense<[1.5, -2.5, 3.5, -4.5]> : vector<4xf32>
  %c2 = arith.constant 2 : index
  %e0 = vector.extractelement %v[%c2 : index] : vector<4xf32>
  vector.print %e0 : f32
  %i1 = arith.constant 1 : i32
  %e1 = vector.extractelement %v[%i1 : i32] : vector<4xf32>
  vector.print %e1 : f32
  %i3 = arith.constant 3 : i8
  %e2 = vector.extractelement %v[%i3 : i8] : vector<4xf32>
  vector.print %e2 : f32
  %z = arith.constant dense<7.25> : vector<f32>
  %e3 = vector.extractelement %z[] : vector<f32>
  vector.print %e3 : f32

  %x = arith.constant 100.0 : f32
  %n0 = vector.insertelement %x, %v[%c2 : index] : vector<4xf32>
  vector.print %n0 : vector<4xf32>
  %n1 = vector.insertelement %x, %v[%i1 : i32] : vector<4xf32>
  vector.print %n1 : vector<4xf32>
  %n2 = vector.insertelement %x, %z[] : vector<f32>
  vector.print %n2 : vector<f32>

  // Reverse an i16 vector with extractelement / insertelement in a loop.
  %w = arith.constant dense<[10, 20, 30, 40, 50]> : vector<5xi16>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %init = arith.constant dense<0> : vector<5xi16>
  %rev = scf.for %i = %c0 to %c5 step %c1 iter_args(%acc = %init) -> (vector<5xi16>) {
    %e = vector.extractelement %w[%i : index] : vector<5xi16>
    %j = arith.subi %c4, %i : index
    %r = vector.insertelement %e, %acc[%j : index] : vector<5xi16>
    scf.yield %r : vector<5xi16>
  }
  vector.print %rev : vector<5xi16>
  %d = arith.constant dense<[0.125, 0.25]> : vector<2xf64>
  %d1 = vector.extractelement %d[%c1 : index] : vector<2xf64>
  vector.print %d1 : f64
  return
}
