func.func @exp(%x: f64) -> f64 {
  %c = arith.constant 42.0 : f64
  return %c : f64
}
func.func @malloc(%n: i64) -> i64 {
  return %n : i64
}
func.func @eqsat_fault(%n: i32) {
  return
}
func.func @eqsat_print_f(%x: f64, %c: i32) {
  return
}
func.func @entry() {
  %x = arith.constant 1.0 : f32
  %y = math.exp %x : f32
  vector.print %y : f32
  %z = arith.constant 0.0 : f64
  %e = func.call @exp(%z) : (f64) -> f64
  vector.print %e : f64
  %m = memref.alloc() : memref<4xf32>
  %k = arith.constant 5 : i64
  %p = func.call @malloc(%k) : (i64) -> i64
  vector.print %p : i64
  %c9 = arith.constant 9 : index
  memref.store %x, %m[%c9] : memref<4xf32>
  return
}
