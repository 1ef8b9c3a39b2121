// torch_save: writes a PyValue as torch.save does (a zip of "archive/data.pkl",
// pickle protocol 2, with one "archive/data/<n>" record per tensor, 64-byte
// aligned, plus "archive/byteorder" and "archive/version"), in the subset
// torch.load(weights_only=True) and io/torch_load read back: None, bool,
// int, float, str, tuple, list, dict, tensors and parameters.
//
// Ownership: copies tensor bytes (each tensor gets its own contiguous storage).
// Errors: Error(Unsupported) for dtypes without a torch storage class.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "program/py_value.h"

namespace pt2web {

// `parameter_keys`: top-level dict keys whose tensors are written as
// nn.Parameter (torch._utils._rebuild_parameter), as torch saves a state dict.
std::vector<uint8_t> torch_save(const PyValue& value, const std::set<std::string>& parameter_keys = {});

}  // namespace pt2web
