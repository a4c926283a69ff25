// REFERENCE: mlir22
// i1 dense literals spelled with integers: MLIR reads -1, 0, 1 as well as true/false (-1 is
// the all-ones bit pattern, i.e. true), in lists and as a splat.
func.func @entry() {
  %a = arith.constant dense<[true, false, -1, 0, 1]> : vector<5xi1>
  vector.print %a : vector<5xi1>
  %b = arith.constant dense<-1> : vector<3xi1>
  vector.print %b : vector<3xi1>
  %c = arith.constant dense<[[1, 0], [0, -1]]> : vector<2x2xi1>
  vector.print %c : vector<2x2xi1>
  %d = arith.constant dense<0> : vector<2xi1>
  vector.print %d : vector<2xi1>
  %s = arith.constant -1 : i1
  vector.print %s : i1
  return
}
