// REFERENCE: hand -- no MLIR 22 contract lowering strategy (dot/outerproduct/parallelarith) nor MLIR 19 lowers a mixed-element-type contract with a scalar result; it stays unlowered
// vector.contract dot products (i): (i) x (i) -> () whose operands are narrower than the
// scalar accumulator: i8 x i8 into i32 and i16 x i16 into i64 (sign-extend, then multiply).
// Expected output, computed by hand and checked with numpy:
//   (-128)(-128) + 127*127 + 3*(-7) + 100 = 16384 + 16129 - 21 + 100 = 32592
//   (-32768)^2 + 32767^2 + 1000*(-1000) + 5 = 1073741824 + 1073676289 - 1000000 + 5 = 2146418118
#dot = {
  indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> ()>],
  iterator_types = ["reduction"]
}

func.func @entry() {
  %a = arith.constant dense<[-128, 127, 3]> : vector<3xi8>
  %b = arith.constant dense<[-128, 127, -7]> : vector<3xi8>
  %c = arith.constant 100 : i32
  %r = vector.contract #dot %a, %b, %c : vector<3xi8>, vector<3xi8> into i32
  vector.print %r : i32

  %x = arith.constant dense<[-32768, 32767, 1000]> : vector<3xi16>
  %y = arith.constant dense<[-32768, 32767, -1000]> : vector<3xi16>
  %z = arith.constant 5 : i64
  %d = vector.contract #dot %x, %y, %z : vector<3xi16>, vector<3xi16> into i64
  vector.print %d : i64
  return
}
