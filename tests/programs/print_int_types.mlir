// REFERENCE: mlir22
// How vector.print formats integers: signless iN is printed as SIGNED decimal (i8 200 -> -56,
// i16 0xFFFF -> -1, i64 min/max), i1 as 0/1 (true is 1, not -1), and index as UNSIGNED
// (index -1 -> 18446744073709551615); vectors of each; odd widths i3/i7/i33 (sign-extended).
func.func @entry() {
  %a = arith.constant dense<[200, 127, -128, 0]> : vector<4xi8>
  vector.print %a : vector<4xi8>
  %b = arith.constant dense<[65535, 32767, -32768]> : vector<3xi16>
  vector.print %b : vector<3xi16>
  %c = arith.constant dense<[4294967295, 2147483647, -2147483648]> : vector<3xi32>
  vector.print %c : vector<3xi32>
  %d = arith.constant dense<[9223372036854775807, -9223372036854775808, -1]> : vector<3xi64>
  vector.print %d : vector<3xi64>
  %e = arith.constant dense<[true, false]> : vector<2xi1>
  vector.print %e : vector<2xi1>
  %t = arith.constant true
  vector.print %t : i1
  %x = arith.constant dense<[0, 1, -1, 9223372036854775807]> : vector<4xindex>
  vector.print %x : vector<4xindex>
  %xs = arith.constant -2 : index
  vector.print %xs : index
  %o = arith.constant dense<[3, 4, 7]> : vector<3xi3>
  vector.print %o : vector<3xi3>
  %p = arith.constant dense<[64, 63]> : vector<2xi7>
  vector.print %p : vector<2xi7>
  %q = arith.constant dense<[4294967296, 8589934591]> : vector<2xi33>
  vector.print %q : vector<2xi33>
  %s = arith.constant 255 : i8
  vector.print %s : i8
  return
}
