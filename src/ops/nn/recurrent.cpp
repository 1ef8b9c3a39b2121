// Recurrent layers: lstm, gru, rnn_tanh, rnn_relu (the .input overloads that
// nn.LSTM / nn.GRU / nn.RNN export to) and their single-step cells.
//
// params come flat, per layer and then per direction: w_ih, w_hh, [b_ih,
// b_hh] when has_biases, and for an LSTM with proj_size (recognised, as ATen
// does, by h0 and c0 having different last dims) a final w_hr. Bidirectional
// layers concatenate both directions' outputs on the feature dim; h_n (and
// c_n) stack the final states as [layers * directions, B, H]. Unbatched
// inputs ([T, input] with [layers * directions, H] states) run as batch 1.
// The arithmetic lives in kernels/recurrent/recurrent_layer.h.
#include "ops/nn/nn.h"
#include "ops/op_utils.h"
#include "kernels/recurrent/recurrent_layer.h"
#include "ops/views.h"

namespace pt2web {

namespace {

using attention_family::floating_compute_dtype;
using attention_family::visit_compute_dtype;
using recurrent::CellKind;
using recurrent::DirectionWeights;
using recurrent::gate_count;

// A [rows, cols] weight transposed to [cols, rows] in `compute`: a view for
// float32 (the GEMM reads strides), else a contiguous copy.
Tensor transposed(const Tensor& w, DType compute) {
  Tensor t = transpose_view(w, 0, 1);
  return compute == DType::Float32 && w.dtype() == DType::Float32 ? t : t.to(compute).contiguous();
}

void check_dtype(const OpCall& c, const Tensor& t, DType dtype, const char* what) {
  if (t.dtype() != dtype)
    fail(ErrorCode::BadInput, c.where(), "input and parameter tensors are not the same dtype, found input with ",
         dtype_name(dtype), " and ", what, " with ", dtype_name(t.dtype()));
}

void check_shape(const OpCall& c, const Tensor& t, const Shape& want, const char* what) {
  if (t.sizes() != want)
    fail(ErrorCode::BadInput, c.where(), "Expected ", what, " of shape ", shape_to_string(want), ", got ",
         shape_to_string(t.sizes()));
}

// Checks one direction's parameters against ATen's layouts (w_ih [G*H, in],
// w_hh [G*H, Hout], biases [G*H], w_hr [Hout, H]) and converts them.
DirectionWeights prepare_weights(const OpCall& c, CellKind kind, const Tensor& w_ih, const Tensor& w_hh,
                                 const Tensor& b_ih, const Tensor& b_hh, const Tensor& w_hr, int64_t input_size,
                                 DType dtype) {
  const DType compute = floating_compute_dtype(dtype);
  const int64_t G = gate_count(kind);
  if (w_ih.dim() != 2 || w_hh.dim() != 2 || w_ih.size(0) % G != 0)
    fail(ErrorCode::BadInput, c.where(), "weights must be 2-D with ", G, "*hidden_size rows, got w_ih ",
         shape_to_string(w_ih.sizes()), " and w_hh ", shape_to_string(w_hh.sizes()));
  if (w_hr.defined() && w_hr.dim() != 2)
    fail(ErrorCode::BadInput, c.where(), "the projection weight must be 2-D, got ", shape_to_string(w_hr.sizes()));
  DirectionWeights w;
  w.input = input_size;
  w.hidden = w_ih.size(0) / G;
  w.out = w_hr.defined() ? w_hr.size(0) : w.hidden;
  const int64_t GH = G * w.hidden;
  for (const Tensor* t : {&w_ih, &w_hh, &b_ih, &b_hh, &w_hr})
    if (t->defined()) check_dtype(c, *t, dtype, "parameter");
  if (w_ih.size(1) != input_size)
    fail(ErrorCode::BadInput, c.where(), "input.size(-1) must be equal to input_size. Expected ", w_ih.size(1),
         ", got ", input_size);
  check_shape(c, w_hh, {GH, w.out}, "w_hh");
  if (b_ih.defined()) check_shape(c, b_ih, {GH}, "b_ih");
  if (b_hh.defined()) check_shape(c, b_hh, {GH}, "b_hh");
  if (w_hr.defined()) check_shape(c, w_hr, {w.out, w.hidden}, "w_hr");
  w.w_ih_t = transposed(w_ih, compute);
  w.w_hh_t = transposed(w_hh, compute);
  if (b_ih.defined()) w.b_ih = b_ih.to(compute).contiguous();
  if (b_hh.defined()) w.b_hh = b_hh.to(compute).contiguous();
  if (w_hr.defined()) w.w_hr_t = transposed(w_hr, compute);
  return w;
}

struct RnnConfig {
  CellKind kind = CellKind::Lstm;
  bool has_biases = true;
  int64_t num_layers = 1;
  double dropout = 0.0;
  bool train = false;
  bool bidirectional = false;
  bool batch_first = false;
};

struct RnnOutputs {
  Tensor output, h_n, c_n;
};

// Reads the op's scalar arguments, which follow the same order in every
// *.input overload: (input, hx, params, has_biases, num_layers, dropout,
// train, bidirectional, batch_first).
RnnConfig read_config(const OpCall& c, CellKind kind) {
  RnnConfig cfg;
  cfg.kind = kind;
  cfg.has_biases = c.bool_arg(3);
  cfg.num_layers = c.int_arg(4);
  cfg.dropout = c.double_arg(5);
  cfg.train = c.bool_arg(6);
  cfg.bidirectional = c.bool_arg(7);
  cfg.batch_first = c.bool_arg(8);
  if (cfg.num_layers < 1) fail(ErrorCode::BadInput, c.where(), "num_layers must be at least 1, got ", cfg.num_layers);
  // ATen drops out between layers only in training; that draws random numbers.
  if (cfg.train && cfg.dropout > 0.0 && cfg.num_layers > 1)
    fail(ErrorCode::Unsupported, c.where(), "dropout between layers in training mode is random and not supported");
  return cfg;
}

// All layers' weights, indexed [layer * directions + direction].
std::vector<DirectionWeights> gather_weights(const OpCall& c, const RnnConfig& cfg, const std::vector<Tensor>& params,
                                             bool projected, int64_t input_size, DType dtype) {
  const int64_t dirs = cfg.bidirectional ? 2 : 1;
  const int64_t per = 2 + (cfg.has_biases ? 2 : 0) + (projected ? 1 : 0);
  if (static_cast<int64_t>(params.size()) != cfg.num_layers * dirs * per)
    fail(ErrorCode::BadInput, c.where(), "got an incorrect number of RNN parameters: expected ",
         cfg.num_layers * dirs * per, " tensors, got ", params.size());
  std::vector<DirectionWeights> weights;
  for (int64_t l = 0; l < cfg.num_layers; ++l)
    for (int64_t d = 0; d < dirs; ++d) {
      const Tensor* p = params.data() + (l * dirs + d) * per;
      Tensor b_ih = cfg.has_biases ? p[2] : Tensor();
      Tensor b_hh = cfg.has_biases ? p[3] : Tensor();
      Tensor w_hr = projected ? p[per - 1] : Tensor();
      int64_t in = l == 0 ? input_size : dirs * weights.front().out;
      weights.push_back(prepare_weights(c, cfg.kind, p[0], p[1], b_ih, b_hh, w_hr, in, dtype));
      if (weights.back().hidden != weights.front().hidden || weights.back().out != weights.front().out)
        fail(ErrorCode::BadInput, c.where(), "all layers must share hidden_size and proj_size");
    }
  return weights;
}

template <typename M>
RnnOutputs run_layers(const RnnConfig& cfg, const std::vector<DirectionWeights>& weights, const Tensor& x0,
                      const Tensor& h0, const Tensor& c0, DType compute) {
  const int64_t dirs = cfg.bidirectional ? 2 : 1;
  const int64_t T = x0.size(0), B = x0.size(1), H = weights.front().hidden, Hout = weights.front().out;
  Tensor h_n = h0.to(compute, true), c_n;
  if (c0.defined()) c_n = c0.to(compute, true);
  Tensor layer_input = x0;
  for (int64_t l = 0; l < cfg.num_layers; ++l) {
    Tensor out = Tensor::empty(compute, {T, B, dirs * Hout});
    for (int64_t d = 0; d < dirs; ++d) {
      const int64_t idx = l * dirs + d;
      M* c_state = c_n.defined() ? c_n.data<M>() + idx * B * H : nullptr;
      recurrent::run_direction<M>(cfg.kind, weights[idx], layer_input.data<M>(), T, B, h_n.data<M>() + idx * B * Hout,
                                  c_state, d == 1, out.data<M>(), dirs * Hout, d * Hout);
    }
    layer_input = out;
  }
  return {layer_input, h_n, c_n};
}

// The whole stacked recurrence. c0 is undefined except for the LSTM.
RnnOutputs run_rnn(const OpCall& c, const RnnConfig& cfg, const Tensor& input, const Tensor& h0_in,
                   const Tensor& c0_in, const std::vector<Tensor>& params) {
  const DType dtype = input.dtype();
  if (!attention_family::is_float_dtype(dtype))
    fail(ErrorCode::Unsupported, c.where(), "recurrent layers need floating-point input, got ", dtype_name(dtype));
  const bool unbatched = input.dim() == 2;
  if (input.dim() != 3 && !(unbatched && !cfg.batch_first))
    fail(ErrorCode::BadInput, c.where(), "input must be 3-D [T, B, input] ([B, T, input] with batch_first) or 2-D "
         "unbatched [T, input], got ", shape_to_string(input.sizes()));
  const DType compute = floating_compute_dtype(dtype);
  // Everything below works on [T, B, ...] with batched states.
  Tensor x = unbatched ? unsqueeze_view(input, 1) : cfg.batch_first ? transpose_view(input, 0, 1) : input;
  Tensor h0 = h0_in, c0 = c0_in;
  if (unbatched) {
    if (h0.dim() != 2 || (c0.defined() && c0.dim() != 2))
      fail(ErrorCode::BadInput, c.where(), "For unbatched 2-D input, hx should also be 2-D but got ",
           h0.dim(), "-D tensor");
    h0 = unsqueeze_view(h0, 1);
    if (c0.defined()) c0 = unsqueeze_view(c0, 1);
  }
  check_dtype(c, h0, dtype, "hx");
  if (c0.defined()) check_dtype(c, c0, dtype, "cx");
  const bool projected = c0.defined() && h0.dim() == 3 && c0.dim() == 3 && h0.size(2) != c0.size(2);
  std::vector<DirectionWeights> weights = gather_weights(c, cfg, params, projected, x.size(2), dtype);
  const int64_t layers = cfg.num_layers * (cfg.bidirectional ? 2 : 1), B = x.size(1);
  check_shape(c, h0, {layers, B, weights.front().out}, "hidden state h0");
  if (c0.defined()) check_shape(c, c0, {layers, B, weights.front().hidden}, "cell state c0");

  Tensor xc = x.to(compute);
  RnnOutputs r = visit_compute_dtype(compute, [&](auto tag) {
    using M = typename decltype(tag)::type;
    return run_layers<M>(cfg, weights, xc, h0, c0, compute);
  });
  if (cfg.batch_first) r.output = transpose_view(r.output, 0, 1);
  if (unbatched) {
    r.output = squeeze_view(r.output, {1});
    r.h_n = squeeze_view(r.h_n, {1});
    if (r.c_n.defined()) r.c_n = squeeze_view(r.c_n, {1});
  }
  r.output = r.output.to(dtype);
  r.h_n = r.h_n.to(dtype);
  if (r.c_n.defined()) r.c_n = r.c_n.to(dtype);
  return r;
}

void lstm_op(OpCall& c) {
  std::vector<Tensor> hx = c.tensor_list(1);
  if (hx.size() != 2) fail(ErrorCode::BadInput, c.where(), "lstm expects two hidden states, got ", hx.size());
  RnnOutputs r = run_rnn(c, read_config(c, CellKind::Lstm), c.tensor(0), hx[0], hx[1], c.tensor_list(2));
  c.push(r.output);
  c.push(r.h_n);
  c.push(r.c_n);
}

template <CellKind kind>
void single_state_rnn_op(OpCall& c) {
  RnnOutputs r = run_rnn(c, read_config(c, kind), c.tensor(0), c.tensor(1), Tensor(), c.tensor_list(2));
  c.push(r.output);
  c.push(r.h_n);
}

// One time step: (input, hx, w_ih, w_hh, b_ih, b_hh). input is [B, in] or
// unbatched [in]; the states match it. Returns (h', c') for the LSTM.
std::pair<Tensor, Tensor> run_cell(const OpCall& c, CellKind kind, const Tensor& input, const Tensor& h_in,
                                   const Tensor& c_in) {
  const DType dtype = input.dtype();
  if (!attention_family::is_float_dtype(dtype))
    fail(ErrorCode::Unsupported, c.where(), "recurrent cells need floating-point input, got ", dtype_name(dtype));
  if (input.dim() != 1 && input.dim() != 2)
    fail(ErrorCode::BadInput, c.where(), "Expected input to be 1D or 2D, got ", input.dim(), "D instead");
  const bool unbatched = input.dim() == 1;
  Tensor x = unbatched ? unsqueeze_view(input, 0) : input;
  Tensor h0 = h_in, c0 = c_in;
  if (h0.dim() != input.dim() || (c0.defined() && c0.dim() != input.dim()))
    fail(ErrorCode::BadInput, c.where(), "hidden state must have as many dims as input (", input.dim(), "), got ",
         h0.dim());
  if (unbatched) {
    h0 = unsqueeze_view(h0, 0);
    if (c0.defined()) c0 = unsqueeze_view(c0, 0);
  }
  check_dtype(c, h0, dtype, "hx");
  if (c0.defined()) check_dtype(c, c0, dtype, "cx");
  DirectionWeights w = prepare_weights(c, kind, c.tensor(2), c.tensor(3), c.optional_tensor(4),
                                       c.optional_tensor(5), Tensor(), x.size(1), dtype);
  const int64_t B = x.size(0);
  check_shape(c, h0, {B, w.hidden}, "hidden state");
  if (c0.defined()) check_shape(c, c0, {B, w.hidden}, "cell state");
  const DType compute = floating_compute_dtype(dtype);
  Tensor xc = x.to(compute), h = h0.to(compute, true), cell = c0.defined() ? c0.to(compute, true) : Tensor();
  visit_compute_dtype(compute, [&](auto tag) {
    using M = typename decltype(tag)::type;
    // Each step's h also lands in a scratch row: the cell only needs the final state.
    std::vector<M> scratch(static_cast<size_t>(B * w.out));
    recurrent::run_direction<M>(kind, w, xc.data<M>(), 1, B, h.data<M>(), cell.defined() ? cell.data<M>() : nullptr,
                                false, scratch.data(), w.out, 0);
  });
  if (unbatched) {
    h = squeeze_view(h, {0});
    if (cell.defined()) cell = squeeze_view(cell, {0});
  }
  return {h.to(dtype), cell.defined() ? cell.to(dtype) : Tensor()};
}

void lstm_cell_op(OpCall& c) {
  std::vector<Tensor> hx = c.tensor_list(1);
  if (hx.size() != 2) fail(ErrorCode::BadInput, c.where(), "lstm_cell expects two hidden states, got ", hx.size());
  auto r = run_cell(c, CellKind::Lstm, c.tensor(0), hx[0], hx[1]);
  c.push(r.first);
  c.push(r.second);
}

template <CellKind kind>
void single_state_cell_op(OpCall& c) {
  c.push(run_cell(c, kind, c.tensor(0), c.tensor(1), Tensor()).first);
}

}  // namespace

void register_recurrent_ops(OpTable& t) {
  t.add("aten::lstm.input(Tensor input, Tensor[] hx, Tensor[] params, bool has_biases, int num_layers, "
        "float dropout, bool train, bool bidirectional, bool batch_first) -> (Tensor, Tensor, Tensor)",
        lstm_op);
  t.add("aten::gru.input(Tensor input, Tensor hx, Tensor[] params, bool has_biases, int num_layers, "
        "float dropout, bool train, bool bidirectional, bool batch_first) -> (Tensor, Tensor)",
        single_state_rnn_op<CellKind::Gru>);
  t.add("aten::rnn_tanh.input(Tensor input, Tensor hx, Tensor[] params, bool has_biases, int num_layers, "
        "float dropout, bool train, bool bidirectional, bool batch_first) -> (Tensor, Tensor)",
        single_state_rnn_op<CellKind::RnnTanh>);
  t.add("aten::rnn_relu.input(Tensor input, Tensor hx, Tensor[] params, bool has_biases, int num_layers, "
        "float dropout, bool train, bool bidirectional, bool batch_first) -> (Tensor, Tensor)",
        single_state_rnn_op<CellKind::RnnRelu>);
  t.add("aten::lstm_cell(Tensor input, Tensor[] hx, Tensor w_ih, Tensor w_hh, Tensor? b_ih=None, "
        "Tensor? b_hh=None) -> (Tensor, Tensor)",
        lstm_cell_op);
  t.add("aten::gru_cell(Tensor input, Tensor hx, Tensor w_ih, Tensor w_hh, Tensor? b_ih=None, "
        "Tensor? b_hh=None) -> Tensor",
        single_state_cell_op<CellKind::Gru>);
  t.add("aten::rnn_tanh_cell(Tensor input, Tensor hx, Tensor w_ih, Tensor w_hh, Tensor? b_ih=None, "
        "Tensor? b_hh=None) -> Tensor",
        single_state_cell_op<CellKind::RnnTanh>);
  t.add("aten::rnn_relu_cell(Tensor input, Tensor hx, Tensor w_ih, Tensor w_hh, Tensor? b_ih=None, "
        "Tensor? b_hh=None) -> Tensor",
        single_state_cell_op<CellKind::RnnRelu>);
}

}  // namespace pt2web
