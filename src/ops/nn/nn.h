// The nn operator folder: Network building blocks: attention, recurrent layers (LSTM, GRU, RNN), distances.
// Each file registers its operators with one function declared here;
// register.cpp calls them all from register_nn_ops (ops/families.h).
#pragma once

#include "ops/registry.h"

namespace pt2web {

void register_attention_ops(OpTable& t);  // attention.cpp
void register_distance_ops(OpTable& t);  // distance.cpp
void register_recurrent_ops(OpTable& t);  // recurrent.cpp

}  // namespace pt2web
