// Bytes: a whole file (a .pt2 archive, or its weights) held in memory and
// shared by everything that reads it. Tensors may borrow spans of it, so it
// lives as long as its last owner; nothing writes to it after it is made.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace pt2web {

using Bytes = std::shared_ptr<const std::vector<uint8_t>>;

struct ByteSpan {
  const uint8_t* data = nullptr;
  size_t size = 0;
};

}  // namespace pt2web
