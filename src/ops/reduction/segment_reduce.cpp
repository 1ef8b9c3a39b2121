// segment_reduce(data, reduce, *, lengths, indices, offsets, axis, unsafe,
// initial): consecutive runs of data along `axis` (given by their lengths,
// or by offsets where each run starts, with one more offset marking the
// end) each reduce to one value with max, min, sum, mean or prod.
//
// As in ATen: every run starts from `initial` when given (else -inf, +inf,
// 0, 0, 1), NaN wins max and min, mean divides the total (initial
// included) by the run's length, and an empty run gives `initial` (NaN for
// mean without one). lengths / offsets may have leading dims matching
// data's dims before axis (one row of runs per position), and axis must be
// their last dim. Values accumulate in double and round once.
#include <cmath>
#include <limits>

#include "ops/elementwise.h"
#include "ops/reduction/common.h"
#include "ops/reduction/reduction.h"
#include "ops/shape_indexing.h"

namespace pt2web {

namespace {

enum class SegmentReduce { Max, Min, Sum, Mean, Prod };

SegmentReduce parse_reduce(const OpCall& c, const std::string& name) {
  if (name == "max") return SegmentReduce::Max;
  if (name == "min") return SegmentReduce::Min;
  if (name == "sum") return SegmentReduce::Sum;
  if (name == "mean") return SegmentReduce::Mean;
  if (name == "prod") return SegmentReduce::Prod;
  fail(ErrorCode::BadInput, c.where(), "reduce argument must be either sum, prod, max, min or mean, got ", name);
}

double start_value(SegmentReduce r, const std::optional<Scalar>& initial) {
  if (initial) return initial->to_double();
  const double inf = std::numeric_limits<double>::infinity();
  switch (r) {
    case SegmentReduce::Max: return -inf;
    case SegmentReduce::Min: return inf;
    case SegmentReduce::Prod: return 1.0;
    default: return 0.0;
  }
}

double reduce_run(SegmentReduce r, const std::optional<Scalar>& initial, const double* data, int64_t stride,
                  int64_t length) {
  double acc = start_value(r, initial);
  for (int64_t j = 0; j < length; ++j) {
    const double v = data[j * stride];
    const bool nan = std::isnan(acc) || std::isnan(v);  // the first NaN stays
    switch (r) {
      case SegmentReduce::Max: acc = nan ? (std::isnan(acc) ? acc : v) : std::max(acc, v); break;
      case SegmentReduce::Min: acc = nan ? (std::isnan(acc) ? acc : v) : std::min(acc, v); break;
      case SegmentReduce::Prod: acc *= v; break;
      default: acc += v; break;
    }
  }
  if (r == SegmentReduce::Mean) {
    if (length == 0 && !initial) return std::nan("");
    if (length > 0 && !std::isnan(acc)) acc /= static_cast<double>(length);
  }
  return acc;
}

void segment_reduce_op(OpCall& c) {
  const Tensor& data = c.tensor(0);
  const SegmentReduce reduce = parse_reduce(c, c.string_arg(1));
  const Tensor lengths_arg = c.optional_tensor(2), indices = c.optional_tensor(3), offsets = c.optional_tensor(4);
  const bool unsafe = c.bool_arg(6);
  const std::optional<Scalar> initial = c.optional_scalar(7);
  if (indices.defined())
    fail(ErrorCode::Unsupported, c.where(), "segment_reduce(): indices based reduction is not supported yet.");
  if (!lengths_arg.defined() && !offsets.defined())
    fail(ErrorCode::BadInput, c.where(), "segment_reduce(): Either lengths or offsets must be defined");
  if (!is_floating(data.dtype()))
    elementwise::fail_not_implemented_for(c, "_segment_reduce_cpu", data.dtype());
  const Tensor& runs = lengths_arg.defined() ? lengths_arg : offsets;
  if (runs.dtype() != DType::Int64 && runs.dtype() != DType::Int32)
    fail(ErrorCode::BadInput, c.where(), "segment_reduce(): lengths and offsets must be int32 or int64");
  if (runs.dim() == 0 || data.dim() < runs.dim())
    fail(ErrorCode::BadInput, c.where(), "segment_reduce(): lengths must have at least one dim and at most data's");
  const int64_t axis = wrap_dim(c.int_arg(5), data.dim());
  if (axis != runs.dim() - 1)
    fail(ErrorCode::BadInput, c.where(), "Expected axis to be the last dimension of lengths but got ", axis, ".");
  for (int64_t d = 0; d < axis; ++d)
    if (runs.sizes()[d] != data.sizes()[d])
      fail(ErrorCode::BadInput, c.where(), "segment_reduce(): lengths ", shape_to_string(runs.sizes()),
           " do not match data ", shape_to_string(data.sizes()), " before axis ", axis);
  const std::vector<int64_t> run_values = read_indices(runs, true, c.where());
  const int64_t per_row = runs.size(-1), segments = lengths_arg.defined() ? per_row : per_row - 1;
  if (segments < 0) fail(ErrorCode::BadInput, c.where(), "segment_reduce(): offsets must not be empty");
  const int64_t outer = shape_numel(Shape(data.sizes().begin(), data.sizes().begin() + axis));
  const int64_t axis_len = data.sizes()[axis];
  const int64_t inner = shape_numel(Shape(data.sizes().begin() + axis + 1, data.sizes().end()));
  Shape out_shape = data.sizes();
  out_shape[axis] = segments;
  const Tensor values = data.to(DType::Float64);
  Tensor out = Tensor::empty(DType::Float64, out_shape);
  for (int64_t o = 0; o < outer; ++o) {
    const int64_t* row = run_values.data() + o * per_row;
    int64_t start = lengths_arg.defined() ? 0 : row[0];
    for (int64_t s = 0; s < segments; ++s) {
      const int64_t length = lengths_arg.defined() ? row[s] : row[s + 1] - row[s];
      if (!lengths_arg.defined()) start = row[s];
      if (length < 0 || start < 0 || start + length > axis_len)
        fail(ErrorCode::BadInput, c.where(), "segment_reduce(): segment ", s, " (start ", start, ", length ", length,
             ") does not fit data.size(", axis, ") = ", axis_len);
      for (int64_t i = 0; i < inner; ++i) {
        const double* first = values.data<double>() + (o * axis_len + start) * inner + i;
        out.data<double>()[(o * segments + s) * inner + i] = reduce_run(reduce, initial, first, inner, length);
      }
      start += length;
    }
    if (lengths_arg.defined() && !unsafe && start != axis_len)
      fail(ErrorCode::BadInput, c.where(),
           "segment_reduce(): Expected all rows of lengths along axis to sum to data.size(lengths.dim()-1) when "
           "!unsafe.");
  }
  c.push(out.to(data.dtype()));
}

}  // namespace

void register_segment_reduce_ops(OpTable& t) {
  t.add("aten::segment_reduce(Tensor data, str reduce, *, Tensor? lengths=None, Tensor? indices=None, "
        "Tensor? offsets=None, int axis=0, bool unsafe=False, Scalar? initial=None) -> Tensor",
        segment_reduce_op);
}

}  // namespace pt2web
