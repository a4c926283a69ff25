// REFERENCE: mlir22
// scf.for with iter_args accumulating vectors (several carried values, a nested loop, step
// 2, zero-trip loop returning the init), scf.while (Collatz steps; a vector carried through a
// while), scf.if / else yielding vectors and scalars, and scf.if without results. Helper
// functions return vectors and multiple results via func.call.
func.func @axpy(%a: f32, %x: vector<4xf32>, %y: vector<4xf32>) -> vector<4xf32> {
  %ab = vector.broadcast %a : f32 to vector<4xf32>
  %r = arith.mulf %ab, %x : vector<4xf32>
  %s = arith.addf %r, %y : vector<4xf32>
  return %s : vector<4xf32>
}

func.func @minmax(%v: vector<4xi32>) -> (i32, i32) {
  %lo = vector.reduction <minsi>, %v : vector<4xi32> into i32
  %hi = vector.reduction <maxsi>, %v : vector<4xi32> into i32
  return %lo, %hi : i32, i32
}

func.func @entry() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c10 = arith.constant 10 : index
  %zero = arith.constant dense<0.0> : vector<4xf32>
  %x = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : vector<4xf32>
  %half = arith.constant 0.5 : f32
  // acc = 0.5 * x + acc, five times; also count iterations and keep the running max.
  %r:3 = scf.for %i = %c0 to %c5 step %c1 iter_args(%acc = %zero, %n = %c0, %mx = %x) -> (vector<4xf32>, index, vector<4xf32>) {
    %a = func.call @axpy(%half, %x, %acc) : (f32, vector<4xf32>, vector<4xf32>) -> vector<4xf32>
    %n1 = arith.addi %n, %c1 : index
    %m = arith.maximumf %mx, %a : vector<4xf32>
    scf.yield %a, %n1, %m : vector<4xf32>, index, vector<4xf32>
  }
  vector.print %r#0 : vector<4xf32>
  vector.print %r#1 : index
  vector.print %r#2 : vector<4xf32>

  // Nested loops (inner step 2) filling a flat vector by dynamic insert, then shape_cast.
  %c4 = arith.constant 4 : index
  %init2 = arith.constant dense<-1> : vector<12xi32>
  %g = scf.for %i = %c0 to %c3 step %c1 iter_args(%m = %init2) -> (vector<12xi32>) {
    %row = scf.for %j = %c0 to %c10 step %c2 iter_args(%rw = %m) -> (vector<12xi32>) {
      %ij = arith.muli %i, %c10 : index
      %v = arith.addi %ij, %j : index
      %vi = arith.index_cast %v : index to i32
      %jj = arith.divui %j, %c2 : index
      %inb = arith.cmpi ult, %jj, %c3 : index
      %upd = scf.if %inb -> (vector<12xi32>) {
        %i4 = arith.muli %i, %c4 : index
        %pos = arith.addi %i4, %jj : index
        %ins = vector.insert %vi, %rw[%pos] : i32 into vector<12xi32>
        scf.yield %ins : vector<12xi32>
      } else {
        scf.yield %rw : vector<12xi32>
      }
      scf.yield %upd : vector<12xi32>
    }
    scf.yield %row : vector<12xi32>
  }
  %g2 = vector.shape_cast %g : vector<12xi32> to vector<3x4xi32>
  vector.print %g2 : vector<3x4xi32>

  // Zero-trip loop.
  %zt = scf.for %i = %c5 to %c3 step %c1 iter_args(%a = %x) -> (vector<4xf32>) {
    %d = arith.addf %a, %a : vector<4xf32>
    scf.yield %d : vector<4xf32>
  }
  vector.print %zt : vector<4xf32>

  // scf.while: Collatz steps for 27.
  %start = arith.constant 27 : i64
  %one = arith.constant 1 : i64
  %two = arith.constant 2 : i64
  %three = arith.constant 3 : i64
  %zero64 = arith.constant 0 : i64
  %w:2 = scf.while (%n = %start, %steps = %zero64) : (i64, i64) -> (i64, i64) {
    %cont = arith.cmpi ne, %n, %one : i64
    scf.condition(%cont) %n, %steps : i64, i64
  } do {
  ^bb0(%n: i64, %steps: i64):
    %rem = arith.remui %n, %two : i64
    %even = arith.cmpi eq, %rem, %zero64 : i64
    %next = scf.if %even -> (i64) {
      %h = arith.divui %n, %two : i64
      scf.yield %h : i64
    } else {
      %t = arith.muli %n, %three : i64
      %t1 = arith.addi %t, %one : i64
      scf.yield %t1 : i64
    }
    %s1 = arith.addi %steps, %one : i64
    scf.yield %next, %s1 : i64, i64
  }
  vector.print %w#0 : i64
  vector.print %w#1 : i64

  // scf.while carrying a vector: double until the first lane exceeds 100.
  %vi = arith.constant dense<[3, -1, 5, 0]> : vector<4xi32>
  %lim = arith.constant 100 : i32
  %wv = scf.while (%v = %vi) : (vector<4xi32>) -> vector<4xi32> {
    %e = vector.extract %v[0] : i32 from vector<4xi32>
    %le = arith.cmpi sle, %e, %lim : i32
    scf.condition(%le) %v : vector<4xi32>
  } do {
  ^bb0(%v: vector<4xi32>):
    %d = arith.addi %v, %v : vector<4xi32>
    scf.yield %d : vector<4xi32>
  }
  vector.print %wv : vector<4xi32>
  %mm:2 = func.call @minmax(%wv) : (vector<4xi32>) -> (i32, i32)
  vector.print %mm#0 : i32
  vector.print %mm#1 : i32

  %cond = arith.cmpi sgt, %mm#1, %lim : i32
  scf.if %cond {
    vector.print str "max > 100\n"
  } else {
    vector.print str "max <= 100\n"
  }
  return
}
