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
