func.func @f(%a: vector<4xf32>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %a) -> (vector<4xf32>) {
    %b = arith.constant dense<1> : vector<4xi32>
    scf.yield %b : vector<4xi32>
  }
  return %r : vector<4xf32>
}
