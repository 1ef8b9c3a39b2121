// einsum as ATen's CompositeImplicit kernel (aten/src/ATen/native/Linear.cpp)
// writes it, so the emitted nodes are the ones torch's run_decompositions
// gives:
//   1. every operand is aligned to one dim order: output labels first (the
//      ellipsis where the output puts it), then the ellipsis if the output
//      has none, then contraction labels alphabetically (A-Z before a-z).
//      A repeated label takes a diagonal (moved back to the first place),
//      missing labels are unsqueezed at the end, then one permute (emitted
//      even when it is the identity);
//   2. operands are contracted left to right (or along the recorded path):
//      a dim is summed in the product when it is the last operand that has
//      it at a size other than 1, summed in its operand first when only that
//      operand has it, and the pair's product is a plain mul without dims to
//      sum, else permute + reshape + bmm + view + permute;
//   3. contraction dims, size 1 by then, are dropped with a view (several
//      operands) or summed (one operand).
// Sizes are never checked here: the program was valid when torch traced it.
// A symbolic size counts as "not 1", as torch's tracing assumes.
#include <algorithm>
#include <deque>
#include <numeric>

#include "passes/decomposition_table.h"
#include "passes/decompositions/composites.h"
#include "passes/tensor_meta_rules.h"
#include "util/error.h"

namespace pt2web {

namespace {

constexpr int kLetters = 26;
constexpr int kLabels = 2 * kLetters;
constexpr int kEllipsis = kLabels;

bool not_one(const SymInt& s) { return !sym_is(s, 1); }

// Parsed subscripts: per operand its labels (kEllipsis for "..."), and the
// output's, when the equation has "->".
struct Equation {
  std::vector<std::vector<int>> operands;
  bool explicit_output = false;
  std::vector<int> output;
};

int label_index(char c) { return c >= 'A' && c <= 'Z' ? c - 'A' : c - 'a' + kLetters; }

std::vector<int> parse_labels(const std::string& text, const std::string& where) {
  std::vector<int> labels;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == ' ') continue;
    if (c == '.') {
      if (text.compare(i, 3, "...") != 0) fail(ErrorCode::BadProgram, "einsum(): a '.' that is not part of '...' in ", where);
      labels.push_back(kEllipsis);
      i += 2;
    } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
      labels.push_back(label_index(c));
    } else {
      fail(ErrorCode::BadProgram, "einsum(): invalid subscript '", c, "' in ", where);
    }
  }
  return labels;
}

Equation parse_equation(const std::string& eq, size_t num_operands) {
  Equation e;
  size_t arrow = eq.find("->");
  std::string lhs = eq.substr(0, arrow);
  size_t start = 0;
  while (true) {
    size_t comma = lhs.find(',', start);
    e.operands.push_back(parse_labels(lhs.substr(start, comma - start), "'" + eq + "'"));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (e.operands.size() != num_operands)
    fail(ErrorCode::BadProgram, "einsum(): the equation '", eq, "' has ", e.operands.size(), " operands, the node ",
         num_operands);
  if (arrow != std::string::npos) {
    e.explicit_output = true;
    e.output = parse_labels(eq.substr(arrow + 2), "'" + eq + "'");
  }
  return e;
}

// The aligned dim order: where each label (and the ellipsis block) goes.
struct Alignment {
  std::vector<int64_t> label_position = std::vector<int64_t>(kLabels, -1);
  int64_t ellipsis_position = 0;
  int64_t ellipsis_dims = 0;
  int64_t output_dims = 0;
  int64_t total_dims = 0;
};

Alignment align(const Equation& e, const std::vector<size_t>& ranks) {
  Alignment a;
  std::vector<int> count(kLabels, 0);
  for (size_t i = 0; i < e.operands.size(); ++i) {
    int64_t named = 0;
    bool ellipsis = false;
    for (int l : e.operands[i]) {
      if (l == kEllipsis) ellipsis = true;
      else ++count[l], ++named;
    }
    if (ellipsis) a.ellipsis_dims = std::max(a.ellipsis_dims, static_cast<int64_t>(ranks[i]) - named);
  }
  int64_t next = 0;
  bool ellipsis_in_output = false;
  if (!e.explicit_output) {
    next = a.ellipsis_dims;
    ellipsis_in_output = true;
    for (int l = 0; l < kLabels; ++l)
      if (count[l] == 1) a.label_position[l] = next++;
  } else {
    for (int l : e.output) {
      if (l == kEllipsis) {
        a.ellipsis_position = next;
        next += a.ellipsis_dims;
        ellipsis_in_output = true;
      } else {
        a.label_position[l] = next++;
      }
    }
  }
  a.output_dims = next;
  if (!ellipsis_in_output) {
    a.ellipsis_position = next;
    next += a.ellipsis_dims;
  }
  for (int l = 0; l < kLabels; ++l)
    if (count[l] > 0 && a.label_position[l] < 0) a.label_position[l] = next++;
  a.total_dims = next;
  return a;
}

std::string emit_diagonal(GraphBuilder& b, const std::string& x, int64_t dim1, int64_t dim2) {
  const TensorMeta& m = b.meta(x);
  TensorMeta out;
  out.dtype = m.dtype;
  for (size_t i = 0; i < m.sizes.size(); ++i) {
    if (static_cast<int64_t>(i) == dim1 || static_cast<int64_t>(i) == dim2) continue;
    out.sizes.push_back(m.sizes[i]);
    out.strides.push_back(m.strides[i]);
  }
  out.sizes.push_back(m.sizes[dim1]);
  const SymInt& s1 = m.strides[dim1];
  const SymInt& s2 = m.strides[dim2];
  if (!s1.is_symbolic && !s2.is_symbolic) out.strides.push_back(sym_const(s1.value + s2.value));
  else out.strides.push_back(contiguous_strides(out.sizes).back());
  // Defaults (offset 0, dims 0 and 1) are left out, as torch's graphs write them.
  std::vector<Argument> args = {tensor_arg(x)};
  if (dim1 != 0 || dim2 != 1) args.insert(args.end(), {int_arg(0), int_arg(dim1), int_arg(dim2)});
  return b.emit1("aten.diagonal.default", args, out);
}

// movedim(x, rank - 1, to) as a permute.
std::string move_last_dim(GraphBuilder& b, const std::string& x, int64_t to) {
  int64_t rank = static_cast<int64_t>(b.meta(x).sizes.size());
  std::vector<int64_t> perm;
  for (int64_t d = 0; d + 1 < rank; ++d) perm.push_back(d);
  perm.insert(perm.begin() + to, rank - 1);
  return emit_permute(b, x, perm);
}

std::string emit_sum(GraphBuilder& b, const std::string& x, const std::vector<int64_t>& dims, bool keepdim) {
  TensorMeta out = reduced_meta(b.meta(x), dims, keepdim);
  if (is_integral(out.dtype) || out.dtype == DType::Bool) out.dtype = DType::Int64;
  std::vector<Argument> args = {tensor_arg(x), ints_arg(dims)};
  if (keepdim) args.push_back(bool_arg(true));
  return b.emit1("aten.sum.dim_IntList", args, out);
}

// Step 1 for one operand.
std::string aligned_operand(GraphBuilder& b, std::string x, const std::vector<int>& labels, const Alignment& a) {
  std::vector<int64_t> perm(a.total_dims, -1);
  int64_t dim = 0;
  const int64_t rank = static_cast<int64_t>(b.meta(x).sizes.size());
  for (int l : labels) {
    if (l == kEllipsis) {
      int64_t covered = rank - (static_cast<int64_t>(labels.size()) - 1);
      for (int64_t j = a.ellipsis_dims - covered; j < a.ellipsis_dims; ++j) perm[a.ellipsis_position + j] = dim++;
    } else if (perm[a.label_position[l]] == -1) {
      perm[a.label_position[l]] = dim++;
    } else {
      int64_t first = perm[a.label_position[l]];
      x = move_last_dim(b, emit_diagonal(b, x, first, dim), first);
    }
  }
  for (int64_t& p : perm) {
    if (p != -1) continue;
    x = b.emit1("aten.unsqueeze.default", {tensor_arg(x), int_arg(dim)}, unsqueezed_meta(b.meta(x), dim));
    p = dim++;
  }
  return emit_permute(b, x, perm);
}

SymInt product_of(const TensorMeta& m, const std::vector<int64_t>& dims) {
  SymInt p = sym_const(1);
  for (int64_t d : dims) p = sym_mul(p, m.sizes[d]);
  return p;
}

std::vector<int64_t> concat(std::initializer_list<const std::vector<int64_t>*> parts) {
  std::vector<int64_t> out;
  for (const auto* p : parts) out.insert(out.end(), p->begin(), p->end());
  return out;
}

// ATen's sumproduct_pair with keepdim: (left * right).sum(sum_dims, keepdim=True).
std::string sum_product_pair(GraphBuilder& b, std::string left, std::string right, const std::vector<int64_t>& sum_dims) {
  const size_t rank = b.meta(left).sizes.size();
  if (sum_dims.empty()) {
    const TensorMeta& ml = b.meta(left);
    const TensorMeta& mr = b.meta(right);
    std::vector<SymInt> sizes(rank);
    for (size_t i = 0; i < rank; ++i) sizes[i] = not_one(ml.sizes[i]) ? ml.sizes[i] : mr.sizes[i];
    return b.emit1("aten.mul.Tensor", {tensor_arg(left), tensor_arg(right)}, contiguous_meta(ml.dtype, sizes));
  }
  std::vector<bool> summed(rank, false);
  for (int64_t d : sum_dims) summed[d] = true;
  std::vector<int64_t> lro, lo, ro;
  SymInt sum_size = sym_const(1);
  for (size_t i = 0; i < rank; ++i) {
    const int64_t d = static_cast<int64_t>(i);
    bool in_left = not_one(b.meta(left).sizes[i]);
    bool in_right = not_one(b.meta(right).sizes[i]);
    if (summed[i]) {
      if (in_left && in_right) sum_size = sym_mul(sum_size, b.meta(left).sizes[i]);
      else if (in_left) left = emit_sum(b, left, {d}, true);
      else if (in_right) right = emit_sum(b, right, {d}, true);
    } else if (in_left && in_right) {
      lro.push_back(d);
    } else if (in_left) {
      lo.push_back(d);
    } else {
      ro.push_back(d);
    }
  }
  const TensorMeta ml = b.meta(left), mr = b.meta(right);
  SymInt lro_size = product_of(ml, lro), lo_size = product_of(ml, lo), ro_size = product_of(mr, ro);
  std::vector<SymInt> out_size;
  for (int64_t d : lro) out_size.push_back(ml.sizes[d]);
  for (int64_t d : lo) out_size.push_back(ml.sizes[d]);
  for (size_t k = 0; k < sum_dims.size(); ++k) out_size.push_back(sym_const(1));
  for (int64_t d : ro) out_size.push_back(mr.sizes[d]);

  std::vector<int64_t> left_perm = concat({&lro, &lo, &sum_dims, &ro});
  std::vector<int64_t> right_perm = concat({&lro, &sum_dims, &ro, &lo});
  std::vector<int64_t> out_order = concat({&lro, &lo, &sum_dims, &ro});
  std::vector<int64_t> out_perm(out_order.size());
  for (size_t i = 0; i < out_order.size(); ++i) out_perm[out_order[i]] = static_cast<int64_t>(i);

  left = reshape_value(b, emit_permute(b, left, left_perm), {lro_size, lo_size, sum_size});
  right = reshape_value(b, emit_permute(b, right, right_perm), {lro_size, sum_size, ro_size});
  std::string product = b.emit1("aten.bmm.default", {tensor_arg(left), tensor_arg(right)},
                                contiguous_meta(ml.dtype, {lro_size, lo_size, ro_size}));
  return emit_permute(b, emit_view(b, product, out_size), out_perm);
}

bool einsum(GraphBuilder& b, const Node& node) {
  const Argument* eq = node_input(node, "equation");
  const Argument* tensors = node_input(node, "tensors");
  if (!eq || eq->kind != Argument::Kind::String || !tensors || tensors->kind != Argument::Kind::Tensors) return false;
  std::vector<std::string> operands;
  for (const auto& name : tensors->names) operands.push_back(b.value(name));
  if (operands.empty()) fail(ErrorCode::BadProgram, "einsum(): no operands in ", node_label(node));
  const Argument* path_arg = node_input(node, "path");
  std::vector<int64_t> path;
  bool has_path = path_arg && path_arg->kind == Argument::Kind::Ints;
  if (has_path) path = path_arg->ints;

  Equation e = parse_equation(eq->str, operands.size());
  std::vector<size_t> ranks;
  for (const auto& x : operands) ranks.push_back(b.meta(x).sizes.size());
  Alignment a = align(e, ranks);

  std::deque<std::string> ops;
  std::vector<int64_t> dim_counts(a.total_dims, 0);
  for (size_t i = 0; i < operands.size(); ++i) {
    std::string x = aligned_operand(b, operands[i], e.operands[i], a);
    // A diagonal leaves one dim per label, so counting on the aligned operand
    // counts what ATen counts on the original.
    const TensorMeta& m = b.meta(x);
    for (int64_t d = 0; d < a.total_dims; ++d)
      if (not_one(m.sizes[d])) ++dim_counts[d];
    ops.push_back(x);
  }

  size_t next_path = 0;
  while (ops.size() > 1) {
    size_t i = 0, j = 1;
    if (has_path) {
      PT2WEB_CHECK(next_path + 1 < path.size(), "einsum path too short in ", node_label(node));
      i = static_cast<size_t>(path[next_path++]);
      j = static_cast<size_t>(path[next_path++]);
      if (j < i) std::swap(i, j);
      PT2WEB_CHECK(i != j && j < ops.size(), "invalid einsum contraction path in ", node_label(node));
    }
    std::string x = ops[i], y = ops[j];
    ops.erase(ops.begin() + static_cast<long>(j));
    ops.erase(ops.begin() + static_cast<long>(i));
    std::vector<int64_t> sum_dims, x_sums, y_sums;
    for (int64_t d = a.output_dims; d < a.total_dims; ++d) {
      bool in_x = not_one(b.meta(x).sizes[d]), in_y = not_one(b.meta(y).sizes[d]);
      if (in_x && in_y) {
        if (--dim_counts[d] == 1) {
          sum_dims.push_back(d);
          dim_counts[d] = 0;
        }
      } else if (dim_counts[d] == 1) {
        if (in_x) x_sums.push_back(d), dim_counts[d] = 0;
        else if (in_y) y_sums.push_back(d), dim_counts[d] = 0;
      }
    }
    if (!x_sums.empty()) x = emit_sum(b, x, x_sums, true);
    if (!y_sums.empty()) y = emit_sum(b, y, y_sums, true);
    std::string product = sum_product_pair(b, x, y, sum_dims);
    if (has_path) ops.push_back(product);
    else ops.push_front(product);
  }

  std::string out = ops.front();
  if (a.total_dims > a.output_dims) {
    if (operands.size() > 1) {
      std::vector<SymInt> sizes = b.meta(out).sizes;
      sizes.resize(static_cast<size_t>(a.output_dims));
      out = emit_view(b, out, sizes);
    } else {
      std::vector<int64_t> dims(static_cast<size_t>(a.total_dims - a.output_dims));
      std::iota(dims.begin(), dims.end(), a.output_dims);
      out = emit_sum(b, out, dims, false);
    }
  }
  bind_outputs(b, node, {out});
  return true;
}

}  // namespace

void add_einsum_decompositions(DecompositionTable& t) { t["aten::einsum.default"] = einsum; }

}  // namespace pt2web
