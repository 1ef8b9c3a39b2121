// Attention: scaled_dot_product_attention and its CPU variants.
#include "ops/families.h"
#include "ops/op_utils.h"

namespace pt2web {

void register_attention_ops(OpTable& t) { (void)t; }

}  // namespace pt2web
