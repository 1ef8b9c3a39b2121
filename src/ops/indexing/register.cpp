#include "ops/families.h"
#include "ops/indexing/indexing.h"

namespace pt2web {

void register_indexing_ops(OpTable& t) {
  register_embedding_bag_ops(t);
  register_composite_indexing_ops(t);
  register_index_ops(t);
  register_scatter_ops(t);
}

}  // namespace pt2web
