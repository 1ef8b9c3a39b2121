// Indexing and gathering: index.Tensor, index_select, gather, scatter*, index_put, embedding, masked_fill, ...
#include "ops/families.h"
#include "ops/op_utils.h"

namespace pt2web {

void register_indexing_ops(OpTable& t) { (void)t; }

}  // namespace pt2web
