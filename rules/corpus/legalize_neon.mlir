// The left-hand sides of rules/legalize/neon.egg.
func.func @sdot(%a: vector<4x4xi8>, %b: vector<4x4xi8>, %acc: vector<4xi32>, %c: vector<2x4xi8>, %d: vector<2x4xi8>, %acc2: vector<2xi32>) -> (vector<4xi32>, vector<2xi32>) {
  %ae = arith.extsi %a : vector<4x4xi8> to vector<4x4xi32>
  %be = arith.extsi %b : vector<4x4xi8> to vector<4x4xi32>
  %p = arith.muli %ae, %be : vector<4x4xi32>
  %0 = vector.multi_reduction <add>, %p, %acc [1] : vector<4x4xi32> to vector<4xi32>
  %1 = vector.contract {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"], kind = #vector.kind<add>} %c, %d, %acc2 : vector<2x4xi8>, vector<2x4xi8> into vector<2xi32>
  return %0, %1 : vector<4xi32>, vector<2xi32>
}

func.func @smull(%a: vector<8xi8>, %b: vector<8xi8>, %c: vector<2xi32>, %d: vector<2xi32>) -> (vector<8xi16>, vector<2xi64>) {
  %ae = arith.extsi %a : vector<8xi8> to vector<8xi16>
  %be = arith.extsi %b : vector<8xi8> to vector<8xi16>
  %0 = arith.muli %ae, %be : vector<8xi16>
  %ce = arith.extsi %c : vector<2xi32> to vector<2xi64>
  %de = arith.extsi %d : vector<2xi32> to vector<2xi64>
  %1 = arith.muli %ce, %de : vector<2xi64>
  return %0, %1 : vector<8xi16>, vector<2xi64>
}

func.func @faddp(%a: vector<4xf32>, %b: vector<4xf32>, %c: vector<2xf64>, %d: vector<2xf64>, %e: vector<2xf32>, %f: vector<2xf32>) -> (vector<4xf32>, vector<2xf64>, vector<2xf32>) {
  %0 = vector.shuffle %a, %b [0, 2, 4, 6] : vector<4xf32>, vector<4xf32>
  %1 = vector.shuffle %a, %b [1, 3, 5, 7] : vector<4xf32>, vector<4xf32>
  %2 = arith.addf %0, %1 : vector<4xf32>
  %3 = vector.shuffle %c, %d [0, 2] : vector<2xf64>, vector<2xf64>
  %4 = vector.shuffle %c, %d [1, 3] : vector<2xf64>, vector<2xf64>
  %5 = arith.addf %3, %4 : vector<2xf64>
  %6 = vector.shuffle %e, %f [0, 2] : vector<2xf32>, vector<2xf32>
  %7 = vector.shuffle %e, %f [1, 3] : vector<2xf32>, vector<2xf32>
  %8 = arith.addf %6, %7 : vector<2xf32>
  return %2, %5, %8 : vector<4xf32>, vector<2xf64>, vector<2xf32>
}
