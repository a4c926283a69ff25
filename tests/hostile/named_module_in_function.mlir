func.func @f() -> f32 {
  "builtin.module"() ({
    %c = arith.constant 1.0 : f32
  }) {sym_name = "inner"} : () -> ()
  %d = arith.constant 2.0 : f32
  return %d : f32
}
