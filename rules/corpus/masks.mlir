// mask-fold rules: vector.mask around reads and reductions (eqsat/encode.py masked_op).
func.func @masked_reductions(%x: vector<4x8xf32>, %acc: vector<4xf32>, %xi: vector<4x8xi32>, %acci: vector<4xi32>, %v: vector<8xf32>, %s: f32, %n: index, %r: index) -> (vector<4xf32>, vector<4xi32>, f32, f32) {
  %k = vector.create_mask %r, %n : vector<4x8xi1>
  %0 = vector.mask %k { vector.multi_reduction <add>, %x, %acc [1] : vector<4x8xf32> to vector<4xf32> } : vector<4x8xi1> -> vector<4xf32>
  %1 = vector.mask %k { vector.multi_reduction <add>, %xi, %acci [1] : vector<4x8xi32> to vector<4xi32> } : vector<4x8xi1> -> vector<4xi32>
  %k1 = vector.create_mask %n : vector<8xi1>
  %2 = vector.mask %k1 { vector.reduction <add>, %v, %s : vector<8xf32> into f32 } : vector<8xi1> -> f32
  %all = vector.constant_mask [8] : vector<8xi1>
  %3 = vector.mask %all { vector.reduction <add>, %v, %s : vector<8xf32> into f32 } : vector<8xi1> -> f32
  return %0, %1, %2, %3 : vector<4xf32>, vector<4xi32>, f32, f32
}

func.func @masked_read(%m: memref<16xf32>, %n: index) -> vector<8xf32> {
  %c0 = arith.constant 0 : index
  %p = arith.constant 1.5 : f32
  %k = vector.create_mask %n : vector<8xi1>
  %0 = vector.mask %k { vector.transfer_read %m[%c0], %p {in_bounds = [true]} : memref<16xf32>, vector<8xf32> } : vector<8xi1> -> vector<8xf32>
  return %0 : vector<8xf32>
}

// Every combining kind, masked (mask-multi-reduction-as-select, mask-reduction-as-select):
// masked-off lanes must act as the kind's identity, NaN and signed zeros included.
func.func @masked_kinds_f32(%x: vector<4x8xf32>, %acc: vector<4xf32>, %v: vector<8xf32>, %s: f32, %n: index, %r: index) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, f32, f32, f32) {
  %k = vector.create_mask %r, %n : vector<4x8xi1>
  %0 = vector.mask %k { vector.multi_reduction <mul>, %x, %acc [1] : vector<4x8xf32> to vector<4xf32> } : vector<4x8xi1> -> vector<4xf32>
  %1 = vector.mask %k { vector.multi_reduction <minimumf>, %x, %acc [1] : vector<4x8xf32> to vector<4xf32> } : vector<4x8xi1> -> vector<4xf32>
  %2 = vector.mask %k { vector.multi_reduction <maximumf>, %x, %acc [1] : vector<4x8xf32> to vector<4xf32> } : vector<4x8xi1> -> vector<4xf32>
  %3 = vector.mask %k { vector.multi_reduction <minnumf>, %x, %acc [1] : vector<4x8xf32> to vector<4xf32> } : vector<4x8xi1> -> vector<4xf32>
  %4 = vector.mask %k { vector.multi_reduction <maxnumf>, %x, %acc [1] : vector<4x8xf32> to vector<4xf32> } : vector<4x8xi1> -> vector<4xf32>
  %k1 = vector.create_mask %n : vector<8xi1>
  %5 = vector.mask %k1 { vector.reduction <maxnumf>, %v, %s : vector<8xf32> into f32 } : vector<8xi1> -> f32
  %6 = vector.mask %k1 { vector.reduction <mul>, %v : vector<8xf32> into f32 } : vector<8xi1> -> f32
  %7 = vector.mask %k1 { vector.multi_reduction <minimumf>, %v, %s [0] : vector<8xf32> to f32 } : vector<8xi1> -> f32
  return %0, %1, %2, %3, %4, %5, %6, %7 : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, f32, f32, f32
}

func.func @masked_kinds_int(%x: vector<4x8xi32>, %acc: vector<4xi32>, %v: vector<16xi8>, %s: i8, %n: index, %r: index) -> (vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, i8, i8) {
  %k = vector.create_mask %r, %n : vector<4x8xi1>
  %0 = vector.mask %k { vector.multi_reduction <mul>, %x, %acc [1] : vector<4x8xi32> to vector<4xi32> } : vector<4x8xi1> -> vector<4xi32>
  %1 = vector.mask %k { vector.multi_reduction <minsi>, %x, %acc [1] : vector<4x8xi32> to vector<4xi32> } : vector<4x8xi1> -> vector<4xi32>
  %2 = vector.mask %k { vector.multi_reduction <maxsi>, %x, %acc [1] : vector<4x8xi32> to vector<4xi32> } : vector<4x8xi1> -> vector<4xi32>
  %3 = vector.mask %k { vector.multi_reduction <minui>, %x, %acc [1] : vector<4x8xi32> to vector<4xi32> } : vector<4x8xi1> -> vector<4xi32>
  %4 = vector.mask %k { vector.multi_reduction <maxui>, %x, %acc [1] : vector<4x8xi32> to vector<4xi32> } : vector<4x8xi1> -> vector<4xi32>
  %5 = vector.mask %k { vector.multi_reduction <and>, %x, %acc [1] : vector<4x8xi32> to vector<4xi32> } : vector<4x8xi1> -> vector<4xi32>
  %6 = vector.mask %k { vector.multi_reduction <or>, %x, %acc [1] : vector<4x8xi32> to vector<4xi32> } : vector<4x8xi1> -> vector<4xi32>
  %7 = vector.mask %k { vector.multi_reduction <xor>, %x, %acc [1] : vector<4x8xi32> to vector<4xi32> } : vector<4x8xi1> -> vector<4xi32>
  %k1 = vector.create_mask %n : vector<16xi1>
  %8 = vector.mask %k1 { vector.reduction <minsi>, %v, %s : vector<16xi8> into i8 } : vector<16xi1> -> i8
  %9 = vector.mask %k1 { vector.reduction <maxui>, %v : vector<16xi8> into i8 } : vector<16xi1> -> i8
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, i8, i8
}

// Masked contractions over the iteration space (mask-contract-add-as-select,
// mask-contract-as-select): f32, mixed i8 x i8 into i32, and a maxsi contraction.
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#acc3 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @masked_contracts(%a: vector<2x4x8xf32>, %b: vector<2x4x8xf32>, %c: vector<2x4xf32>, %ai: vector<2x4x8xi8>, %bi: vector<2x4x8xi8>, %ci: vector<2x4xi32>, %aj: vector<2x4x8xi32>, %bj: vector<2x4x8xi32>, %cj: vector<2x4xi32>, %m0: index, %m1: index, %m2: index) -> (vector<2x4xf32>, vector<2x4xi32>, vector<2x4xi32>) {
  %k = vector.create_mask %m0, %m1, %m2 : vector<2x4x8xi1>
  %0 = vector.mask %k { vector.contract {indexing_maps = [#id3, #id3, #acc3], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<2x4x8xf32>, vector<2x4x8xf32> into vector<2x4xf32> } : vector<2x4x8xi1> -> vector<2x4xf32>
  %1 = vector.mask %k { vector.contract {indexing_maps = [#id3, #id3, #acc3], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %ai, %bi, %ci : vector<2x4x8xi8>, vector<2x4x8xi8> into vector<2x4xi32> } : vector<2x4x8xi1> -> vector<2x4xi32>
  %2 = vector.mask %k { vector.contract {indexing_maps = [#id3, #id3, #acc3], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<maxsi>} %aj, %bj, %cj : vector<2x4x8xi32>, vector<2x4x8xi32> into vector<2x4xi32> } : vector<2x4x8xi1> -> vector<2x4xi32>
  return %0, %1, %2 : vector<2x4xf32>, vector<2x4xi32>, vector<2x4xi32>
}

// A masked read with a passthru (mask-transfer-read-passthru-as-select), 1-D and 2-D.
func.func @masked_read_passthru(%m: memref<16xf32>, %m2: memref<4x8xf32>, %pt: vector<8xf32>, %pt2: vector<4x8xf32>, %n: index, %r: index) -> (vector<8xf32>, vector<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %p = arith.constant 1.5 : f32
  %k = vector.create_mask %n : vector<8xi1>
  %0 = vector.mask %k, %pt { vector.transfer_read %m[%c2], %p {in_bounds = [true]} : memref<16xf32>, vector<8xf32> } : vector<8xi1> -> vector<8xf32>
  %k2 = vector.create_mask %r, %n : vector<4x8xi1>
  %1 = vector.mask %k2, %pt2 { vector.transfer_read %m2[%c0, %c0], %p {in_bounds = [true, true]} : memref<4x8xf32>, vector<4x8xf32> } : vector<4x8xi1> -> vector<4x8xf32>
  return %0, %1 : vector<8xf32>, vector<4x8xf32>
}

// A masked gather (mask-gather-as-anded-mask): its own mask and the vector.mask both apply.
func.func @masked_gather(%m: memref<8x8xf32>, %iv: vector<2x4xindex>, %gm: vector<2x4xi1>, %pt: vector<2x4xf32>, %r: index, %n: index) -> vector<2x4xf32> {
  %c0 = arith.constant 0 : index
  %k = vector.create_mask %r, %n : vector<2x4xi1>
  %0 = vector.mask %k { vector.gather %m[%c0, %c0] [%iv], %gm, %pt : memref<8x8xf32>, vector<2x4xindex>, vector<2x4xi1>, vector<2x4xf32> into vector<2x4xf32> } : vector<2x4xi1> -> vector<2x4xf32>
  return %0 : vector<2x4xf32>
}

// Other element types: the neutral-lit texts of f16, bf16, f64, i64 and i1 decode and hold.
func.func @masked_kinds_types(%h: vector<8xf16>, %sh: f16, %b: vector<8xbf16>, %sb: bf16, %d: vector<8xf64>, %sd: f64, %l: vector<8xi64>, %sl: i64, %p: vector<8xi1>, %sp: i1, %n: index) -> (f16, bf16, f64, i64, i1, i1) {
  %k = vector.create_mask %n : vector<8xi1>
  %0 = vector.mask %k { vector.reduction <maxnumf>, %h, %sh : vector<8xf16> into f16 } : vector<8xi1> -> f16
  %1 = vector.mask %k { vector.reduction <minimumf>, %b, %sb : vector<8xbf16> into bf16 } : vector<8xi1> -> bf16
  %2 = vector.mask %k { vector.reduction <mul>, %d, %sd : vector<8xf64> into f64 } : vector<8xi1> -> f64
  %3 = vector.mask %k { vector.reduction <minsi>, %l, %sl : vector<8xi64> into i64 } : vector<8xi1> -> i64
  %4 = vector.mask %k { vector.reduction <and>, %p, %sp : vector<8xi1> into i1 } : vector<8xi1> -> i1
  %5 = vector.mask %k { vector.reduction <maxsi>, %p, %sp : vector<8xi1> into i1 } : vector<8xi1> -> i1
  return %0, %1, %2, %3, %4, %5 : f16, bf16, f64, i64, i1, i1
}
