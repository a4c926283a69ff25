// REFERENCE: mlir22
// vector.print formatting: nested parentheses per dim with ", " separators and a trailing
// newline; punctuation <no_punctuation> (value only, no newline), <comma>, <open>, <close>,
// <newline> alone and after a value; vector.print str "..." (escapes \n, \t, quotes;
// no newline added); building a custom format from pieces in a loop; empty-ish vectors
// (vector<1x1xT>, vector<1xT>).
func.func @entry() {
  %v = arith.constant dense<[[1, 2], [3, 4]]> : vector<2x2xi32>
  vector.print %v : vector<2x2xi32>
  vector.print %v : vector<2x2xi32> punctuation <no_punctuation>
  vector.print punctuation <newline>
  %f = arith.constant 0.5 : f32
  vector.print %f : f32 punctuation <no_punctuation>
  vector.print punctuation <comma>
  vector.print %f : f32 punctuation <comma>
  vector.print %f : f32 punctuation <newline>
  vector.print punctuation <open>
  vector.print punctuation <close>
  vector.print punctuation <newline>
  vector.print str "hello, world\n"
  vector.print str "no newline"
  vector.print str " | tab:\t| quote:\22| backslash:\\|\n"
  vector.print str ""
  vector.print punctuation <newline>
  // [0; 1; 2] built by hand.
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  vector.print str "["
  scf.for %i = %c0 to %c3 step %c1 {
    vector.print %i : index punctuation <no_punctuation>
    %last = arith.cmpi eq, %i, %c1 : index
    %more = arith.cmpi ult, %i, %c1 : index
    scf.if %more {
      vector.print str "; "
    }
    scf.if %last {
      vector.print str "; "
    }
  }
  vector.print str "]\n"
  %one = arith.constant dense<[[7]]> : vector<1x1xi8>
  vector.print %one : vector<1x1xi8>
  %single = arith.constant dense<[-0.125]> : vector<1xf64>
  vector.print %single : vector<1xf64>
  vector.print %single : vector<1xf64> punctuation <comma>
  vector.print %single : vector<1xf64> punctuation <newline>
  return
}
