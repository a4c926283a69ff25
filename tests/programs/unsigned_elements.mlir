// REFERENCE: mlir22
// Unsigned element types print unsigned (printU64), as MLIR's runner does: a ui4 holding the
// bits of -8 prints 8; reductions over ui4 wrap modulo 16 and print unsigned; signed siN
// elements print signed.
func.func @entry() {
  %u = arith.constant dense<[0, 1, 7, 8, 15, 9, 10, 11, 12, 13, 14, 2, 3, 4, 5, 6]> : vector<16xui4>
  vector.print %u : vector<16xui4>
  %ra = vector.reduction <add>, %u : vector<16xui4> into ui4
  vector.print %ra : ui4
  %rx = vector.reduction <maxui>, %u : vector<16xui4> into ui4
  vector.print %rx : ui4
  %rn = vector.reduction <minsi>, %u : vector<16xui4> into ui4
  vector.print %rn : ui4
  %rs = vector.reduction <maxsi>, %u : vector<16xui4> into ui4
  vector.print %rs : ui4
  %a = arith.constant dense<[255, 1]> : vector<2xui8>
  vector.print %a : vector<2xui8>
  %b = arith.constant dense<[-1, 1]> : vector<2xsi8>
  vector.print %b : vector<2xsi8>
  %c = arith.constant dense<[18446744073709551615, 1]> : vector<2xui64>
  vector.print %c : vector<2xui64>
  %d = arith.constant dense<[[4294967295], [1]]> : vector<2x1xui32>
  vector.print %d : vector<2x1xui32>
  %e = vector.extract %d[0, 0] : ui32 from vector<2x1xui32>
  vector.print %e : ui32
  %g = arith.constant dense<[-8, 7]> : vector<2xsi4>
  vector.print %g : vector<2xsi4>
  return
}
