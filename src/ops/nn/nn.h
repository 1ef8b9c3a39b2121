// The nn operator folder: Network building blocks: attention, recurrent layers (LSTM, GRU, RNN), distances,
// losses, and layer operators ATen composes from others.
// Each file registers its operators with one function declared here;
// register.cpp calls them all from register_nn_ops (ops/families.h).
#pragma once

#include "ops/registry.h"

namespace pt2web {

void register_attention_ops(OpTable& t);  // attention.cpp
void register_class_loss_ops(OpTable& t);  // class_losses.cpp
void register_composite_layer_ops(OpTable& t);  // composite_layers.cpp
void register_distance_ops(OpTable& t);  // distance.cpp
void register_dropout_ops(OpTable& t);  // dropout.cpp
void register_distance_composite_ops(OpTable& t);  // distance_composites.cpp
void register_loss_ops(OpTable& t);  // losses.cpp
void register_recurrent_ops(OpTable& t);  // recurrent.cpp

}  // namespace pt2web
