// The indexing family is spread over two files; indexing.cpp's
// register_indexing_ops calls the other's register function.
#pragma once

#include "ops/registry.h"

namespace pt2web {

void register_indexing_scatter_ops(OpTable& t);  // indexing_scatter.cpp

}  // namespace pt2web
