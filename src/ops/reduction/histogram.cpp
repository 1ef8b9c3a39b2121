// Histograms: histc, histogram (bin count or edges), histogramdd and its
// three building blocks (_histogramdd_bin_edges, _histogramdd_from_bin_cts,
// _histogramdd_from_bin_tensors).
//
// The input is M points of N coordinates ([..., N] read as [M, N]; the 1-d
// forms use N = 1). A point whose coordinate lies outside [first, last]
// edge of any dim (NaN included) is left out; otherwise it lands in the bin
// whose left edge is the last one <= the coordinate, the last edge itself
// counting into the last bin. As in ATen, equal-width bins place a point by
// division in the input's dtype: histc stops there, histogram and
// histogramdd then correct the guess against the neighbouring edges, and
// given edges are searched. Counts (or weights) accumulate in double; with
// density the histogram is divided by its total and by each bin's width.
#include <algorithm>
#include <cmath>
#include <tuple>

#include "ops/op_compose.h"
#include "ops/reduction/common.h"
#include "ops/reduction/reduction.h"

namespace pt2web {

namespace {

enum class BinSearch { Division, DivisionThenNeighbours, Edges };

struct Points {
  Tensor data;  // [M, N] contiguous
  int64_t count = 0, dims = 0;
};

Points as_points(const Tensor& self, bool one_dim, const std::string& where) {
  if (!one_dim && self.dim() < 2)
    fail(ErrorCode::BadInput, where, "torch.histogramdd: input tensor should have at least 2 dimensions, but got ",
         self.dim());
  if (!is_floating(self.dtype()))
    fail(ErrorCode::BadInput, where, "\"histogram_cpu\" not implemented for '", dtype_name(self.dtype()), "'");
  Points p;
  p.dims = one_dim ? 1 : self.size(-1);
  p.count = p.dims == 0 ? 0 : self.numel() / p.dims;
  p.data = reshape(self, {p.count, p.dims}).contiguous();
  return p;
}

// The weight of each point, as [M] (checked against the input's shape without its last dim).
Tensor point_weights(const Tensor& self, const Tensor& weight, bool one_dim, const std::string& where) {
  if (!weight.defined()) return weight;
  if (weight.dtype() != self.dtype())
    fail(ErrorCode::BadInput, where, "torch.histogramdd: if weight tensor is provided, input tensor and weight tensor ",
         "should have the same dtype, but got input(", dtype_name(self.dtype()), "), and weight(",
         dtype_name(weight.dtype()), ")");
  Shape expected = one_dim ? Shape{self.numel()} : Shape(self.sizes().begin(), self.sizes().end() - 1);
  Shape got = weight.dim() == 0 ? Shape{1} : weight.sizes();
  if (one_dim) got = {weight.numel()};
  if (expected != got)
    fail(ErrorCode::BadInput, where, "torch.histogramdd: if weight tensor is provided it should have the same shape as ",
         "the input tensor excluding its innermost dimension, but got input with shape ",
         shape_to_string(self.sizes()), " and weight with shape ", shape_to_string(weight.sizes()));
  return reshape(weight, {-1}).to(DType::Float64);
}

void check_edges(const Points& p, const std::vector<Tensor>& edges, const Tensor& input, const std::string& where) {
  if (static_cast<int64_t>(edges.size()) != p.dims)
    fail(ErrorCode::BadInput, where, "torch.histogramdd: expected ", p.dims, " sequences of bin edges for a ", p.dims,
         "-dimensional histogram but got ", edges.size());
  for (size_t d = 0; d < edges.size(); ++d) {
    if (edges[d].dtype() != input.dtype())
      fail(ErrorCode::BadInput, where, "torch.histogramdd: input tensor and bins tensors should have the same dtype, ",
           "but got input with dtype ", dtype_name(input.dtype()), " and bins for dimension ", d, " with dtype ",
           dtype_name(edges[d].dtype()));
    if (edges[d].dim() != 1)
      fail(ErrorCode::BadInput, where, "torch.histogramdd: bins tensor should have one dimension, but got ",
           edges[d].dim(), " dimensions in the bins tensor for dimension ", d);
    if (edges[d].numel() == 0)
      fail(ErrorCode::BadInput, where, "torch.histogramdd: bins tensor should have at least 1 element, but got 0 ",
           "elements in the bins tensor for dimension ", d);
  }
}

// The bin of coordinate v among `count` edges, or -1 when it lies outside them.
template <typename T>
int64_t bin_of(T v, const T* edges, int64_t count, BinSearch search) {
  using M = opmath_t<T>;
  const M x = static_cast<M>(v), left = static_cast<M>(edges[0]), right = static_cast<M>(edges[count - 1]);
  if (!(x >= left && x <= right)) return -1;
  int64_t pos;
  auto upper = [&](int64_t lo, int64_t hi) {
    return std::upper_bound(edges + lo, edges + hi, v, [](T a, T b) { return static_cast<M>(a) < static_cast<M>(b); }) -
           edges - 1;
  };
  if (search == BinSearch::Edges) {
    pos = upper(0, count);
  } else {
    // (x - left) * (count - 1) / (right - left), each step rounded to T as ATen's kernel computes it.
    const T offset = convert_element<T>(x - left);
    const T scaled = convert_element<T>(static_cast<M>(offset) * static_cast<M>(count - 1));
    pos = static_cast<int64_t>(static_cast<M>(convert_element<T>(static_cast<M>(scaled) / static_cast<M>(
                                                                     convert_element<T>(right - left)))));
    if (search == BinSearch::DivisionThenNeighbours)
      pos = upper(std::max<int64_t>(0, pos - 1), std::min<int64_t>(pos + 2, count));
  }
  return pos == count - 1 ? pos - 1 : pos;
}

Tensor histogram_of(const Points& p, const std::vector<Tensor>& edge_list, const Tensor& weights, bool density,
                    BinSearch search, const Tensor& input, const std::string& where) {
  check_edges(p, edge_list, input, where);
  std::vector<Tensor> edges;
  Shape shape;
  for (const Tensor& e : edge_list) {
    edges.push_back(e.contiguous());
    shape.push_back(e.numel() - 1);
  }
  const int64_t cells = shape_numel(shape);
  std::vector<double> hist(static_cast<size_t>(cells), 0.0);
  visit_dtype(input.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_floating_type_v<T>) {
      const T* x = p.data.data<T>();
      for (int64_t m = 0; m < p.count; ++m) {
        int64_t cell = 0;
        bool inside = true;
        for (int64_t d = 0; d < p.dims && inside; ++d) {
          const int64_t b = bin_of<T>(x[m * p.dims + d], edges[d].data<T>(), edges[d].numel(), search);
          inside = b >= 0;
          cell = cell * shape[d] + b;
        }
        if (inside && cells > 0) hist[cell] += weights.defined() ? weights.data<double>()[m] : 1.0;
      }
    }
  });
  if (density) {
    double total = 0.0;
    for (double h : hist) total += h;
    for (double& h : hist) h /= total;
    for (int64_t d = 0, inner = cells; d < p.dims; ++d) {
      const Tensor e = edges[d].to(DType::Float64);
      inner /= std::max<int64_t>(shape[d], 1);
      for (int64_t i = 0; i < cells; ++i) {
        const int64_t b = (i / std::max<int64_t>(inner, 1)) % shape[d];
        hist[i] /= e.data<double>()[b + 1] - e.data<double>()[b];
      }
    }
  }
  Tensor out = Tensor::empty(DType::Float64, shape);
  std::copy(hist.begin(), hist.end(), out.data<double>());
  return out.to(input.dtype());
}

// The smallest and largest coordinate of dim d over all points (NaN when any is NaN).
std::pair<double, double> data_extremes(const Points& p, int64_t d) {
  const Tensor x = p.data.to(DType::Float64);
  double lo = x.data<double>()[d], hi = lo;
  for (int64_t m = 0; m < p.count; ++m) {
    const double v = x.data<double>()[m * p.dims + d];
    if (std::isnan(v) || std::isnan(lo)) {
      lo = hi = std::nan("");
    } else {
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  }
  return {lo, hi};
}

// The first and last edge of each dim: the given range, else the data's
// extremes (0 and 1 without data); an empty range widens by 0.5 each way.
std::vector<std::pair<double, double>> outer_edges(const Points& p, const std::optional<std::vector<double>>& range,
                                                   const std::string& where) {
  std::vector<std::pair<double, double>> out(static_cast<size_t>(p.dims), {0.0, 1.0});
  if (range) {
    if (static_cast<int64_t>(range->size()) != 2 * p.dims)
      fail(ErrorCode::BadInput, where, "torch.histogramdd: for a ", p.dims, "-dimensional histogram range should have ",
           2 * p.dims, " elements, but got ", range->size());
    for (int64_t d = 0; d < p.dims; ++d) out[d] = {(*range)[2 * d], (*range)[2 * d + 1]};
  } else if (p.count > 0) {
    for (int64_t d = 0; d < p.dims; ++d) out[d] = data_extremes(p, d);
  }
  for (int64_t d = 0; d < p.dims; ++d) {
    auto& [lo, hi] = out[d];
    if (!std::isfinite(lo) || !std::isfinite(hi))
      fail(ErrorCode::BadInput, where, "torch.histogramdd: dimension ", d, "'s range [", lo, ", ", hi, "] is not finite");
    if (lo > hi)
      fail(ErrorCode::BadInput, where, "torch.histogramdd: min should not exceed max, but got min ", lo, " max ", hi,
           " for dimension ", d);
    if (lo == hi) lo -= 0.5, hi += 0.5;
  }
  return out;
}

Tensor evenly_spaced_edges(double lo, double hi, int64_t bins, DType dtype, int64_t dim, const std::string& where) {
  if (bins <= 0)
    fail(ErrorCode::BadInput, where, "torch.histogram(): bins must be > 0, but got ", bins, " for dimension ", dim);
  return run_op1("aten::linspace.default",
                 {arg(lo), arg(hi), arg(bins + 1), Value::from_dtype(dtype)});
}

std::vector<Tensor> edges_from_counts(const Points& p, const std::vector<int64_t>& bins,
                                      const std::optional<std::vector<double>>& range, DType dtype,
                                      const std::string& where) {
  if (static_cast<int64_t>(bins.size()) != p.dims)
    fail(ErrorCode::BadInput, where, "torch.histogramdd: expected ", p.dims, " sequences of bin edges for a ", p.dims,
         "-dimensional histogram but got ", bins.size());
  const auto outer = outer_edges(p, range, where);
  std::vector<Tensor> edges;
  for (int64_t d = 0; d < p.dims; ++d)
    edges.push_back(evenly_spaced_edges(outer[d].first, outer[d].second, bins[d], dtype, d, where));
  return edges;
}

std::optional<std::vector<double>> optional_range(const OpCall& c, size_t index) {
  if (c.arg(index).is_none()) return std::nullopt;
  return c.double_list(index);
}

// histc(self, bins, min, max): min == max takes the data's extremes (then
// widens by 1 each way if still equal).
void histc_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  Points p = as_points(self, true, c.where());
  double lo = c.scalar(2).to_double(), hi = c.scalar(3).to_double();
  if (lo == hi && p.count > 0) std::tie(lo, hi) = data_extremes(p, 0);
  if (lo == hi) lo -= 1, hi += 1;
  if (!std::isfinite(lo) || !std::isfinite(hi))
    fail(ErrorCode::BadInput, c.where(), "torch.histc: range of [", lo, ", ", hi, "] is not finite");
  if (!(lo < hi)) fail(ErrorCode::BadInput, c.where(), "torch.histc: max must be larger than min");
  Tensor edges = evenly_spaced_edges(lo, hi, c.int_arg(1), self.dtype(), 0, c.where());
  c.push(histogram_of(p, {edges}, Tensor(), false, BinSearch::Division, self, c.where()));
}

// histogram.bin_ct(self, bins, *, range, weight, density) -> (hist, bin_edges)
void histogram_bin_count_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  Points p = as_points(self, true, c.where());
  const Tensor weights = point_weights(self, c.optional_tensor(3), true, c.where());
  std::vector<Tensor> edges = edges_from_counts(p, {c.int_arg(1)}, optional_range(c, 2), self.dtype(), c.where());
  c.push(histogram_of(p, edges, weights, c.bool_arg(4), BinSearch::DivisionThenNeighbours, self, c.where()));
  c.push(edges[0]);
}

// histogram.bins_tensor(self, bins, *, weight, density) -> (hist, bin_edges)
void histogram_bin_edges_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  Points p = as_points(self, true, c.where());
  const Tensor weights = point_weights(self, c.optional_tensor(2), true, c.where());
  c.push(histogram_of(p, {c.tensor(1)}, weights, c.bool_arg(3), BinSearch::Edges, self, c.where()));
  c.push(c.tensor(1).clone());
}

// _histogramdd_bin_edges(self, bins, *, range, weight, density) -> Tensor[]
void histogramdd_bin_edges_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  Points p = as_points(self, false, c.where());
  point_weights(self, c.optional_tensor(3), false, c.where());
  c.outputs.push_back(
      Value::from_tensors(edges_from_counts(p, c.int_list(1), optional_range(c, 2), self.dtype(), c.where())));
}

std::pair<Tensor, std::vector<Tensor>> histogramdd_counts(const OpCall& c, const std::vector<int64_t>& bins,
                                                           size_t range_index, size_t weight_index, bool density) {
  const Tensor& self = c.tensor(0);
  Points p = as_points(self, false, c.where());
  const Tensor weights = point_weights(self, c.optional_tensor(weight_index), false, c.where());
  std::vector<Tensor> edges = edges_from_counts(p, bins, optional_range(c, range_index), self.dtype(), c.where());
  Tensor hist = histogram_of(p, edges, weights, density, BinSearch::DivisionThenNeighbours, self, c.where());
  return {hist, edges};
}

Tensor histogramdd_edges(const OpCall& c, const std::vector<Tensor>& edges, size_t weight_index, bool density) {
  const Tensor& self = c.tensor(0);
  Points p = as_points(self, false, c.where());
  const Tensor weights = point_weights(self, c.optional_tensor(weight_index), false, c.where());
  return histogram_of(p, edges, weights, density, BinSearch::Edges, self, c.where());
}

// _histogramdd_from_bin_cts(self, bins, *, range, weight, density) -> Tensor
void histogramdd_from_counts_op(OpCall& c) { c.push(histogramdd_counts(c, c.int_list(1), 2, 3, c.bool_arg(4)).first); }

// _histogramdd_from_bin_tensors(self, bins, *, weight, density) -> Tensor
void histogramdd_from_edges_op(OpCall& c) { c.push(histogramdd_edges(c, c.tensor_list(1), 2, c.bool_arg(3))); }

// histogramdd(self, bins: int[], range, weight, density) -> (hist, bin_edges)
void histogramdd_op(OpCall& c) {
  auto [hist, edges] = histogramdd_counts(c, c.int_list(1), 2, 3, c.bool_arg(4));
  c.push(hist);
  c.outputs.push_back(Value::from_tensors(edges));
}

// histogramdd.int_bins(self, bins: int, ...): the same count in every dim.
void histogramdd_int_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  const std::vector<int64_t> bins(static_cast<size_t>(self.dim() == 0 ? 0 : self.size(-1)), c.int_arg(1));
  auto [hist, edges] = histogramdd_counts(c, bins, 2, 3, c.bool_arg(4));
  c.push(hist);
  c.outputs.push_back(Value::from_tensors(edges));
}

// histogramdd.TensorList_bins(self, bins: Tensor[], range (unused), weight, density)
void histogramdd_tensors_op(OpCall& c) {
  const std::vector<Tensor> edges = c.tensor_list(1);
  c.push(histogramdd_edges(c, edges, 3, c.bool_arg(4)));
  c.outputs.push_back(Value::from_tensors(edges));
}

}  // namespace

void register_histogram_ops(OpTable& t) {
  t.add("aten::histc(Tensor self, int bins=100, Scalar min=0, Scalar max=0) -> Tensor", histc_op);
  t.add("aten::histogram.bin_ct(Tensor self, int bins=100, *, float[]? range=None, Tensor? weight=None, "
        "bool density=False) -> (Tensor hist, Tensor bin_edges)",
        histogram_bin_count_op);
  t.add("aten::histogram.bins_tensor(Tensor self, Tensor bins, *, Tensor? weight=None, bool density=False) -> "
        "(Tensor hist, Tensor bin_edges)",
        histogram_bin_edges_op);
  t.add("aten::_histogramdd_bin_edges(Tensor self, int[] bins, *, float[]? range=None, Tensor? weight=None, "
        "bool density=False) -> Tensor[]",
        histogramdd_bin_edges_op);
  t.add("aten::_histogramdd_from_bin_cts(Tensor self, int[] bins, *, float[]? range=None, Tensor? weight=None, "
        "bool density=False) -> Tensor",
        histogramdd_from_counts_op);
  t.add("aten::_histogramdd_from_bin_tensors(Tensor self, Tensor[] bins, *, Tensor? weight=None, "
        "bool density=False) -> Tensor",
        histogramdd_from_edges_op);
  t.add("aten::histogramdd(Tensor self, int[] bins, float[]? range=None, Tensor? weight=None, bool density=False) -> "
        "(Tensor hist, Tensor[] bin_edges)",
        histogramdd_op);
  t.add("aten::histogramdd.int_bins(Tensor self, int bins, float[]? range=None, Tensor? weight=None, "
        "bool density=False) -> (Tensor hist, Tensor[] bin_edges)",
        histogramdd_int_op);
  t.add("aten::histogramdd.TensorList_bins(Tensor self, Tensor[] bins, float[]? range=None, Tensor? weight=None, "
        "bool density=False) -> (Tensor hist, Tensor[] bin_edges)",
        histogramdd_tensors_op);
}

}  // namespace pt2web
