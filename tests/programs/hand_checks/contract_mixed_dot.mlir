// REFERENCE: mlir22 -- hand check of ../contract_mixed_dot.mlir: operands sign-extended with arith.extsi first, then a same-type dot contract (which MLIR lowers)
#dot = {
  indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> ()>],
  iterator_types = ["reduction"]
}

func.func @entry() {
  %a = arith.constant dense<[-128, 127, 3]> : vector<3xi8>
  %b = arith.constant dense<[-128, 127, -7]> : vector<3xi8>
  %c = arith.constant 100 : i32
  %aw = arith.extsi %a : vector<3xi8> to vector<3xi32>
  %bw = arith.extsi %b : vector<3xi8> to vector<3xi32>
  %r = vector.contract #dot %aw, %bw, %c : vector<3xi32>, vector<3xi32> into i32
  vector.print %r : i32

  %x = arith.constant dense<[-32768, 32767, 1000]> : vector<3xi16>
  %y = arith.constant dense<[-32768, 32767, -1000]> : vector<3xi16>
  %z = arith.constant 5 : i64
  %xw = arith.extsi %x : vector<3xi16> to vector<3xi64>
  %yw = arith.extsi %y : vector<3xi16> to vector<3xi64>
  %d = vector.contract #dot %xw, %yw, %z : vector<3xi64>, vector<3xi64> into i64
  vector.print %d : i64
  return
}
