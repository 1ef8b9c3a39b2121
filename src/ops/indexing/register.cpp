#include "ops/families.h"
#include "ops/indexing/indexing.h"

namespace pt2web {

// Operator files added while the folder layout was being restructured; their
// declarations move to indexing.h with the next change to that header.
void register_composite_indexing_ops(OpTable& t);  // composite_indexing.cpp

void register_indexing_ops(OpTable& t) {
  register_embedding_bag_ops(t);
  register_composite_indexing_ops(t);
  register_index_ops(t);
  register_scatter_ops(t);
}

}  // namespace pt2web
