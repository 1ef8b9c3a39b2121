// The indexing operator folder: Indexing: index / index_put, masks, nonzero, gather and scatter families, embedding and embedding_bag.
// Each file registers its operators with one function declared here;
// register.cpp calls them all from register_indexing_ops (ops/families.h).
#pragma once

#include "ops/registry.h"

namespace pt2web {

void register_embedding_bag_ops(OpTable& t);  // embedding_bag.cpp
void register_index_ops(OpTable& t);  // index.cpp
void register_scatter_ops(OpTable& t);  // scatter.cpp
void register_composite_indexing_ops(OpTable& t);  // composite_indexing.cpp

}  // namespace pt2web
