// einsum, with torch's rules: subscripts are [a-zA-Z] (spaces ignored), one
// '...' per operand stands for its remaining dims (right-aligned and
// broadcast across operands), a subscript repeated within an operand takes
// the diagonal, and without '->' the output is the ellipsis dims followed by
// the subscripts that appear exactly once, in sorted order (A-Z before a-z).
// With an explicit output that lacks '...', the ellipsis dims are summed.
// Size-1 dims broadcast against the same subscript elsewhere.
//
// Evaluation: operands are folded left to right. Before each pairwise step,
// subscripts that no later operand nor the output needs and that only one
// side has are summed away; the pair then becomes one batched matrix product
// [batch, left, contracted] x [batch, contracted, right]. The optional
// contraction `path` only changes the order, so it is not needed for the
// result. Floats compute in float32 (16-bit round once at the end) or
// float64; int64 wraps on overflow.
#include <algorithm>
#include <numeric>
#include <string>

#include "kernels/gemm/typed_gemm.h"
#include "ops/linalg/linalg.h"
#include "ops/op_utils.h"
#include "ops/views.h"

namespace pt2web {

namespace {

constexpr int kLetterCount = 52;  // A-Z then a-z; ellipsis dims are numbered after them

int letter_label(char ch) {
  if (ch >= 'A' && ch <= 'Z') return ch - 'A';
  if (ch >= 'a' && ch <= 'z') return 26 + (ch - 'a');
  return -1;
}

char label_letter(int label) { return label < 26 ? static_cast<char>('A' + label) : static_cast<char>('a' + label - 26); }

// One side of the equation for one operand (or the output): its letters in
// order, and where '...' sits among them (-1 when absent).
struct Term {
  std::vector<int> letters;
  int ellipsis_at = -1;
};

struct Equation {
  std::vector<Term> inputs;
  bool has_output = false;
  Term output;
};

// Parses "ab,bc->ac" style terms; `what` names the term in messages.
Term parse_term(const std::string& text, size_t start, size_t end, const std::string& what, const char* op) {
  Term term;
  for (size_t i = start; i < end; ++i) {
    const char ch = text[i];
    if (ch == ' ') continue;
    if (ch == '.') {
      if (i + 2 >= end || text[i + 1] != '.' || text[i + 2] != '.')
        fail(ErrorCode::BadInput, op, "einsum(): found '.' for ", what, " that is not part of any ellipsis");
      if (term.ellipsis_at >= 0) fail(ErrorCode::BadInput, op, "einsum(): found more than one ellipsis for ", what);
      term.ellipsis_at = static_cast<int>(term.letters.size());
      i += 2;
      continue;
    }
    const int label = letter_label(ch);
    if (label < 0)
      fail(ErrorCode::BadInput, op, "einsum(): invalid subscript given at index ", i,
           " in the equation string, subscripts must be in [a-zA-Z]");
    term.letters.push_back(label);
  }
  return term;
}

Equation parse_equation(const std::string& eq, const char* op) {
  Equation parsed;
  const size_t arrow = eq.find("->");
  const size_t lhs_end = arrow == std::string::npos ? eq.size() : arrow;
  size_t start = 0;
  while (true) {
    size_t comma = eq.find(',', start);
    size_t end = comma == std::string::npos || comma > lhs_end ? lhs_end : comma;
    parsed.inputs.push_back(
        parse_term(eq, start, end, "operand " + std::to_string(parsed.inputs.size()), op));
    if (end == lhs_end) break;
    start = end + 1;
  }
  if (arrow != std::string::npos) {
    parsed.has_output = true;
    parsed.output = parse_term(eq, arrow + 2, eq.size(), "the output", op);
  }
  return parsed;
}

// A tensor whose dims carry distinct labels (letters, or ellipsis dims
// numbered from kLetterCount).
struct Labeled {
  Tensor t;
  std::vector<int> labels;
};

// Gives each dim of operand `index` its label, checking the dim count.
std::vector<int> dim_labels(const Term& term, const Tensor& t, int64_t ellipsis_dims, size_t index, const char* op) {
  const int64_t named = static_cast<int64_t>(term.letters.size());
  if (term.ellipsis_at < 0 && named != t.dim())
    fail(ErrorCode::BadInput, op, "einsum(): the number of subscripts in the equation (", named,
         ") does not match the number of dimensions (", t.dim(), ") for operand ", index, " and no ellipsis was given");
  if (term.ellipsis_at >= 0 && named > t.dim())
    fail(ErrorCode::BadInput, op, "einsum(): the number of subscripts in the equation (", named,
         ") is more than the number of dimensions (", t.dim(), ") for operand ", index);
  const int64_t own = t.dim() - named;
  std::vector<int> labels;
  for (int64_t i = 0; i <= named; ++i) {
    if (i == term.ellipsis_at)
      for (int64_t e = ellipsis_dims - own; e < ellipsis_dims; ++e) labels.push_back(kLetterCount + static_cast<int>(e));
    if (i < named) labels.push_back(term.letters[i]);
  }
  return labels;
}

// Folds repeated labels into their diagonal (a view), keeping first occurrences in order.
Labeled take_diagonals(const Tensor& t, const std::vector<int>& labels, size_t index, const char* op) {
  Labeled out;
  Shape sizes, strides;
  for (size_t d = 0; d < labels.size(); ++d) {
    auto seen = std::find(out.labels.begin(), out.labels.end(), labels[d]);
    if (seen == out.labels.end()) {
      out.labels.push_back(labels[d]);
      sizes.push_back(t.size(d));
      strides.push_back(t.strides()[d]);
      continue;
    }
    const size_t at = seen - out.labels.begin();
    if (sizes[at] != t.size(d))
      fail(ErrorCode::BadInput, op, "einsum(): subscript ", label_letter(labels[d]), " is repeated for operand ",
           index, " but the sizes don't match, ", sizes[at], " != ", t.size(d));
    strides[at] += t.strides()[d];
  }
  out.t = t.as_strided(sizes, strides, t.storage_offset());
  return out;
}

bool contains(const std::vector<int>& v, int x) { return std::find(v.begin(), v.end(), x) != v.end(); }

int64_t size_of(const Labeled& x, int label) {
  return x.t.size(std::find(x.labels.begin(), x.labels.end(), label) - x.labels.begin());
}

// x's dims rearranged to `order` and broadcast to `sizes`, as a contiguous
// tensor in the compute type.
Tensor arrange(const Labeled& x, const std::vector<int>& order, const Shape& sizes, DType compute) {
  std::vector<int64_t> perm;
  for (int label : order) perm.push_back(std::find(x.labels.begin(), x.labels.end(), label) - x.labels.begin());
  return expand_view(permute_view(x.t, perm), sizes).to(compute);
}

// Sums x over `drop` (labels of x); the result is contiguous in the compute type.
template <typename T>
Labeled sum_out(const Labeled& x, const std::vector<int>& drop, DType compute) {
  if (drop.empty()) return x;
  Labeled out;
  std::vector<int> order;
  Shape kept_sizes, order_sizes;
  for (int label : x.labels)
    if (!contains(drop, label)) {
      out.labels.push_back(label);
      kept_sizes.push_back(size_of(x, label));
    }
  order = out.labels;
  order.insert(order.end(), drop.begin(), drop.end());
  for (int label : order) order_sizes.push_back(size_of(x, label));
  Tensor src = arrange(x, order, order_sizes, compute);
  out.t = Tensor::empty(compute, kept_sizes);
  const int64_t rows = shape_numel(kept_sizes), inner = rows == 0 ? 0 : src.numel() / rows;
  using Acc = attention_family::wrap_acc_t<T>;
  const T* s = src.data<T>();
  T* d = out.t.data<T>();
  for (int64_t r = 0; r < rows; ++r) {
    Acc acc = Acc(0);
    for (int64_t i = 0; i < inner; ++i) acc += static_cast<Acc>(s[r * inner + i]);
    d[r] = static_cast<T>(acc);
  }
  return out;
}

// Labels of x that neither y nor `needed` (the output and later operands) use.
std::vector<int> private_labels(const Labeled& x, const Labeled& y, const std::vector<int>& needed) {
  std::vector<int> drop;
  for (int label : x.labels)
    if (!contains(y.labels, label) && !contains(needed, label)) drop.push_back(label);
  return drop;
}

// a (x) b as one batched matrix product; `needed` lists labels that must survive.
template <typename T>
Labeled contract_pair(const Labeled& a_in, const Labeled& b_in, const std::vector<int>& needed, DType compute) {
  Labeled a = sum_out<T>(a_in, private_labels(a_in, b_in, needed), compute);
  Labeled b = sum_out<T>(b_in, private_labels(b_in, a_in, needed), compute);
  std::vector<int> batch, left, contracted, right;
  for (int label : a.labels) {
    if (!contains(b.labels, label)) left.push_back(label);
    else if (contains(needed, label)) batch.push_back(label);
    else contracted.push_back(label);
  }
  for (int label : b.labels)
    if (!contains(a.labels, label)) right.push_back(label);
  // A size-1 side broadcasts to the other side's size (which may be 0).
  auto shared_size = [&](int label) {
    const int64_t sa = size_of(a, label), sb = size_of(b, label);
    return sa == 1 ? sb : sa;
  };
  Shape batch_sizes, left_sizes, contracted_sizes, right_sizes;
  for (int label : batch) batch_sizes.push_back(shared_size(label));
  for (int label : left) left_sizes.push_back(size_of(a, label));
  for (int label : contracted) contracted_sizes.push_back(shared_size(label));
  for (int label : right) right_sizes.push_back(size_of(b, label));
  const int64_t nb = shape_numel(batch_sizes), M = shape_numel(left_sizes), K = shape_numel(contracted_sizes),
                N = shape_numel(right_sizes);

  auto concat = [](std::vector<int> x, const std::vector<int>& y, const std::vector<int>& z) {
    x.insert(x.end(), y.begin(), y.end());
    x.insert(x.end(), z.begin(), z.end());
    return x;
  };
  auto concat_sizes = [](Shape x, const Shape& y, const Shape& z) {
    x.insert(x.end(), y.begin(), y.end());
    x.insert(x.end(), z.begin(), z.end());
    return x;
  };
  Tensor am = arrange(a, concat(batch, left, contracted), concat_sizes(batch_sizes, left_sizes, contracted_sizes),
                      compute);
  Tensor bm = arrange(b, concat(batch, contracted, right), concat_sizes(batch_sizes, contracted_sizes, right_sizes),
                      compute);
  Labeled out;
  out.labels = concat(batch, left, right);
  out.t = Tensor::empty(compute, concat_sizes(batch_sizes, left_sizes, right_sizes));
  for (int64_t i = 0; i < nb; ++i)
    attention_family::gemm<T>(M, N, K, am.data<T>() + i * M * K, K, bm.data<T>() + i * K * N, N,
                              out.t.data<T>() + i * M * N, N, false);
  return out;
}

// The output's labels, in order.
std::vector<int> output_labels(const Equation& eq, int64_t ellipsis_dims, const char* op) {
  std::vector<int> out;
  auto push_ellipsis = [&] {
    for (int64_t e = 0; e < ellipsis_dims; ++e) out.push_back(kLetterCount + static_cast<int>(e));
  };
  if (!eq.has_output) {
    std::vector<int> count(kLetterCount, 0);
    for (const Term& t : eq.inputs)
      for (int label : t.letters) ++count[label];
    push_ellipsis();
    for (int label = 0; label < kLetterCount; ++label)
      if (count[label] == 1) out.push_back(label);
    return out;
  }
  const Term& o = eq.output;
  for (size_t i = 0; i <= o.letters.size(); ++i) {
    if (static_cast<int>(i) == o.ellipsis_at) push_ellipsis();
    if (i == o.letters.size()) break;
    const int label = o.letters[i];
    if (contains(out, label))
      fail(ErrorCode::BadInput, op, "einsum(): output subscript ", label_letter(label), " appears more than once in the output");
    bool in_inputs = false;
    for (const Term& t : eq.inputs) in_inputs = in_inputs || contains(t.letters, label);
    if (!in_inputs)
      fail(ErrorCode::BadInput, op, "einsum(): output subscript ", label_letter(label),
           " does not appear in the equation for any input operand");
    out.push_back(label);
  }
  return out;
}

// Checks that every label has one size up to broadcasting of size-1 dims.
void check_label_sizes(const std::vector<Labeled>& ops, int64_t ellipsis_dims, const char* op) {
  std::vector<int64_t> size(kLetterCount + ellipsis_dims, -1);
  for (size_t i = 0; i < ops.size(); ++i)
    for (size_t d = 0; d < ops[i].labels.size(); ++d) {
      const int label = ops[i].labels[d];
      const int64_t n = ops[i].t.size(d);
      int64_t& known = size[label];
      if (known == -1 || known == 1) known = n;
      else if (n != 1 && n != known)
        fail(ErrorCode::BadInput, op, "einsum(): operands do not broadcast: operand ", i, " has size ", n,
             " for ", label < kLetterCount ? std::string("subscript ") + label_letter(label) : std::string("an ellipsis dim"),
             " where another operand has ", known);
    }
}

template <typename T>
Tensor evaluate(std::vector<Labeled> ops, const std::vector<int>& out_labels, DType compute) {
  Labeled acc = ops[0];
  for (size_t i = 1; i < ops.size(); ++i) {
    std::vector<int> needed = out_labels;
    for (size_t j = i + 1; j < ops.size(); ++j) needed.insert(needed.end(), ops[j].labels.begin(), ops[j].labels.end());
    acc = contract_pair<T>(acc, ops[i], needed, compute);
  }
  std::vector<int> drop;
  for (int label : acc.labels)
    if (!contains(out_labels, label)) drop.push_back(label);
  acc = sum_out<T>(acc, drop, compute);
  Shape sizes;
  for (int label : out_labels) sizes.push_back(size_of(acc, label));
  return arrange(acc, out_labels, sizes, compute);
}

DType einsum_compute_dtype(const std::vector<Tensor>& tensors, const char* op) {
  const DType dtype = tensors[0].dtype();
  for (const Tensor& t : tensors)
    if (t.dtype() != dtype)
      fail(ErrorCode::Unsupported, op, "einsum(): operands of different dtypes (", dtype_name(dtype), " and ",
           dtype_name(t.dtype()), ") are not supported");
  if (dtype == DType::Int64) return DType::Int64;
  if (!attention_family::is_float_dtype(dtype))
    fail(ErrorCode::Unsupported, op, "einsum() supports floating-point and int64 operands, got ", dtype_name(dtype));
  return attention_family::floating_compute_dtype(dtype);
}

void einsum_op(OpCall& c) {
  const std::string where = c.where();
  const char* op = where.c_str();
  const std::vector<Tensor> tensors = c.tensor_list(1);
  if (tensors.empty()) fail(ErrorCode::BadInput, op, "einsum(): must provide at least one operand");
  const Equation eq = parse_equation(c.string_arg(0), op);
  if (eq.inputs.size() < tensors.size())
    fail(ErrorCode::BadInput, op, "einsum(): more operands were provided than specified in the equation");
  if (eq.inputs.size() > tensors.size())
    fail(ErrorCode::BadInput, op, "einsum(): fewer operands were provided than specified in the equation");
  const DType compute = einsum_compute_dtype(tensors, op);

  int64_t ellipsis_dims = 0;
  for (size_t i = 0; i < tensors.size(); ++i)
    if (eq.inputs[i].ellipsis_at >= 0)
      ellipsis_dims = std::max<int64_t>(ellipsis_dims, tensors[i].dim() - eq.inputs[i].letters.size());
  std::vector<Labeled> ops;
  for (size_t i = 0; i < tensors.size(); ++i)
    ops.push_back(take_diagonals(tensors[i], dim_labels(eq.inputs[i], tensors[i], ellipsis_dims, i, op), i, op));
  check_label_sizes(ops, ellipsis_dims, op);
  const std::vector<int> out_labels = output_labels(eq, ellipsis_dims, op);

  Tensor result = compute == DType::Float64 ? evaluate<double>(ops, out_labels, compute)
                  : compute == DType::Int64 ? evaluate<int64_t>(ops, out_labels, compute)
                                            : evaluate<float>(ops, out_labels, compute);
  // A plain relabelling (say "ij->ji" on a contiguous operand) may come back
  // as the operand itself; the result must own its storage.
  bool aliases_input = false;
  for (const Tensor& t : tensors) aliases_input = aliases_input || result.storage() == t.storage();
  c.push(result.to(tensors[0].dtype(), aliases_input));
}

}  // namespace

void register_einsum_ops(OpTable& t) {
  t.add("aten::einsum(str equation, Tensor[] tensors, *, int[]? path=None) -> Tensor", einsum_op);
}

}  // namespace pt2web
