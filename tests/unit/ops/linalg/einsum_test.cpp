// einsum on small hand-checkable cases: products, diagonals, traces, implicit
// outputs, ellipsis broadcasting, size-1 broadcasting, empty dims, int64
// wrap-around, strided inputs and the equation errors torch raises.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>

#include "ops/views.h"
#include "ops/op_test.h"

using namespace pt2web;
using namespace pt2web::op_test;

namespace {

std::vector<Value> einsum_args(const std::string& eq, const std::vector<Tensor>& ts) {
  return {Value::from_string(eq), Value::from_tensors(ts)};
}

Tensor einsum(const std::string& eq, const std::vector<Tensor>& ts) {
  return call("aten::einsum.default", einsum_args(eq, ts)).at(0).tensor;
}

ErrorCode einsum_error(const std::string& eq, const std::vector<Tensor>& ts) {
  return error_code_of("aten::einsum.default", einsum_args(eq, ts));
}

}  // namespace

TEST_CASE("einsum matrix products and outer products", "[einsum]") {
  Tensor a = make({2, 2}, {1, 2, 3, 4});
  Tensor b = make({2, 2}, {5, 6, 7, 8});
  check_values(einsum("ij,jk->ik", {a, b}), {2, 2}, {19, 22, 43, 50});
  check_values(einsum("ij,jk", {a, b}), {2, 2}, {19, 22, 43, 50});          // implicit output "ik"
  check_values(einsum("ij,kj->ik", {a, b}), {2, 2}, {17, 23, 39, 53});     // a @ b^T
  check_values(einsum("i,j->ij", {make({2}, {1, 2}), make({3}, {1, 10, 100})}), {2, 3}, {1, 10, 100, 2, 20, 200});
  check_values(einsum("bi,bj->bij", {a, b}), {2, 2, 2}, {5, 6, 10, 12, 21, 24, 28, 32});
  check_values(einsum("ij,ij->", {a, b}), {}, {70});
}

TEST_CASE("einsum diagonals, traces and implicit ordering", "[einsum]") {
  Tensor a = make({2, 2}, {1, 2, 3, 4});
  check_values(einsum("ii->i", {a}), {2}, {1, 4});
  check_values(einsum("ii", {a}), {}, {5});  // 'i' appears twice: the implicit output is empty
  check_values(einsum("ba", {a}), {2, 2}, {1, 3, 2, 4});  // implicit output "ab" is the transpose
  Tensor c = make({2, 3}, {1, 2, 3, 4, 5, 6});
  // Upper case sorts before lower case: "aB" -> "Ba".
  check_values(einsum("aB", {c}), {3, 2}, {1, 4, 2, 5, 3, 6});
  check_values(einsum("ij->j", {c}), {3}, {5, 7, 9});
  check_values(einsum("i j -> j i", {c}), {3, 2}, {1, 4, 2, 5, 3, 6});  // spaces are ignored
}

TEST_CASE("einsum ellipsis dims broadcast and are summed when not in the output", "[einsum]") {
  Tensor x = make({2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor w = make({3}, {1, 0, -1});
  check_values(einsum("...i,...i->...", {x, w}), {2}, {-2, -2});
  check_values(einsum("...i,i", {x, w}), {2}, {-2, -2});
  check_values(einsum("...ij->...ji", {make({1, 2, 2}, {1, 2, 3, 4})}), {1, 2, 2}, {1, 3, 2, 4});
  check_values(einsum("...i->i", {x}), {3}, {5, 7, 9});
  check_values(einsum("i...->...", {x}), {3}, {5, 7, 9});
}

TEST_CASE("einsum broadcasts size-1 dims and handles empty dims", "[einsum]") {
  Tensor row = make({1, 2}, {10, 20});
  Tensor m = make({3, 2}, {1, 2, 3, 4, 5, 6});
  check_values(einsum("ij,ij->ij", {row, m}), {3, 2}, {10, 40, 30, 80, 50, 120});
  check_values(einsum("ij,ij->j", {row, m}), {2}, {90, 240});
  // A contracted dim of size 0 gives zeros; an output dim of size 0 gives an empty result.
  check_values(einsum("ij,jk->ik", {Tensor::empty(DType::Float32, {2, 0}), Tensor::empty(DType::Float32, {0, 3})}),
               {2, 3}, {0, 0, 0, 0, 0, 0});
  CHECK(einsum("ij,jk->ik", {Tensor::empty(DType::Float32, {0, 2}), m.as_strided({2, 3}, {3, 1}, 0)}).sizes() ==
        Shape{0, 3});
  // Size 1 against size 0 broadcasts to 0.
  CHECK(einsum("ij,ij->ij", {row.as_strided({1, 0}, {2, 1}, 0), Tensor::empty(DType::Float32, {3, 0})}).sizes() ==
        Shape{3, 0});
  check_values(einsum("ij,ij->i", {make({3, 1}, {1, 2, 3}), Tensor::empty(DType::Float32, {3, 0})}), {3}, {0, 0, 0});
}

TEST_CASE("einsum reads strided views and keeps dtypes", "[einsum]") {
  Tensor a = make({2, 2}, {1, 2, 3, 4});
  Tensor at = transpose_view(a, 0, 1);  // [[1, 3], [2, 4]]
  check_values(einsum("ij,jk->ik", {at, make({2, 1}, {1, 1})}), {2, 1}, {4, 6});
  Tensor h = einsum("ij->ji", {a.to(DType::Float16)});
  CHECK(h.dtype() == DType::Float16);
  check_values(h, {2, 2}, {1, 3, 2, 4});
  Tensor d = einsum("i,i->", {make({2}, {0.5, 0.25}, DType::Float64), make({2}, {2, 4}, DType::Float64)});
  CHECK(d.dtype() == DType::Float64);
  check_values(d, {}, {2});
  // A relabelling must not hand back the operand's own storage.
  Tensor same = einsum("ij->ij", {a});
  CHECK(same.storage() != a.storage());
}

TEST_CASE("einsum int64 wraps on overflow", "[einsum]") {
  Tensor a = Tensor::empty(DType::Int64, {2});
  a.data<int64_t>()[0] = std::numeric_limits<int64_t>::max();
  a.data<int64_t>()[1] = 1;
  Tensor ones = Tensor::empty(DType::Int64, {2});
  ones.data<int64_t>()[0] = ones.data<int64_t>()[1] = 1;
  Tensor r = einsum("i,i->", {a, ones});
  CHECK(r.dtype() == DType::Int64);
  CHECK(r.item_as_int() == std::numeric_limits<int64_t>::min());
  CHECK(einsum("i->", {a}).item_as_int() == std::numeric_limits<int64_t>::min());
}

TEST_CASE("einsum rejects malformed equations", "[einsum]") {
  Tensor a = make({2, 2}, {1, 2, 3, 4});
  CHECK(einsum_error("ij,jk->ik", {a}) == ErrorCode::BadInput);        // too few operands
  CHECK(einsum_error("ij->ij", {a, a}) == ErrorCode::BadInput);        // too many operands
  CHECK(einsum_error("i1->i", {a}) == ErrorCode::BadInput);            // not a letter
  CHECK(einsum_error("ij->ii", {a}) == ErrorCode::BadInput);           // repeated output subscript
  CHECK(einsum_error("ij->k", {a}) == ErrorCode::BadInput);            // output subscript not in inputs
  CHECK(einsum_error("ijk->i", {a}) == ErrorCode::BadInput);           // too many subscripts
  CHECK(einsum_error("i->i", {a}) == ErrorCode::BadInput);             // too few, no ellipsis
  CHECK(einsum_error("i.j->i", {a}) == ErrorCode::BadInput);           // stray '.'
  CHECK(einsum_error("ii->i", {make({2, 3}, {0, 0, 0, 0, 0, 0})}) == ErrorCode::BadInput);  // diagonal sizes differ
  CHECK(einsum_error("ij,ij->ij", {a, make({3, 2}, {0, 0, 0, 0, 0, 0})}) == ErrorCode::BadInput);  // no broadcast
  CHECK(einsum_error("ij->ij", {a.to(DType::Int32)}) == ErrorCode::Unsupported);
}

namespace {

// einsum by its definition: every assignment of the subscripts, the product
// of the operands' elements, summed into the output (explicit outputs, no
// ellipsis, subscripts a-z only).
std::vector<double> einsum_by_definition(const std::string& eq, const std::vector<Tensor>& ts, Shape& out_shape) {
  const size_t arrow = eq.find("->");
  std::vector<std::string> inputs;
  for (size_t start = 0;;) {
    size_t comma = eq.find(',', start);
    size_t end = comma < arrow ? comma : arrow;
    inputs.push_back(eq.substr(start, end - start));
    if (end == arrow) break;
    start = end + 1;
  }
  const std::string output = eq.substr(arrow + 2);
  std::vector<int64_t> size(26, 0);
  std::string letters;
  for (size_t i = 0; i < inputs.size(); ++i)
    for (size_t d = 0; d < inputs[i].size(); ++d) {
      const int l = inputs[i][d] - 'a';
      if (letters.find(inputs[i][d]) == std::string::npos) letters += inputs[i][d];
      size[l] = std::max(size[l], ts[i].size(d));
    }
  out_shape.clear();
  for (char ch : output) out_shape.push_back(size[ch - 'a']);
  std::vector<double> out(shape_numel(out_shape), 0.0);
  std::vector<int64_t> idx(26, 0);
  std::function<void(size_t)> visit = [&](size_t k) {
    if (k < letters.size()) {
      for (idx[letters[k] - 'a'] = 0; idx[letters[k] - 'a'] < size[letters[k] - 'a']; ++idx[letters[k] - 'a'])
        visit(k + 1);
      return;
    }
    double product = 1;
    for (size_t i = 0; i < inputs.size(); ++i) {
      int64_t flat = 0;
      for (size_t d = 0; d < inputs[i].size(); ++d) {
        const int64_t n = ts[i].size(d);
        flat = flat * n + (n == 1 ? 0 : idx[inputs[i][d] - 'a']);
      }
      product *= ts[i].item_as_double(flat);
    }
    int64_t o = 0;
    for (char ch : output) o = o * size[ch - 'a'] + idx[ch - 'a'];
    out[o] += product;
  };
  visit(0);
  return out;
}

Tensor counting(const Shape& shape, double step) {
  std::vector<double> v(shape_numel(shape));
  for (size_t i = 0; i < v.size(); ++i) v[i] = step * static_cast<double>((i * 7) % 11) - 1.0;
  return make(shape, v);
}

}  // namespace

TEST_CASE("einsum matches its definition on multi-operand equations", "[einsum]") {
  struct Case {
    std::string eq;
    std::vector<Shape> shapes;
  };
  const std::vector<Case> cases = {
      {"bij,bjk->bik", {{2, 3, 4}, {2, 4, 5}}},
      {"abc,cd,dbe->ae", {{2, 3, 4}, {4, 2}, {2, 3, 3}}},
      {"i,i,i->", {{5}, {5}, {5}}},
      {"aab,bc->ac", {{3, 3, 2}, {2, 4}}},
      {"ij,jk,kl->li", {{2, 3}, {3, 1}, {4, 2}}},
      {"abc,ab->cb", {{2, 3, 4}, {1, 3}}},
      {"ab,cd->dbca", {{2, 3}, {2, 2}}},
      {"aba->b", {{2, 3, 2}}},
  };
  for (const Case& k : cases) {
    std::vector<Tensor> ts;
    for (size_t i = 0; i < k.shapes.size(); ++i) ts.push_back(counting(k.shapes[i], 0.25 + 0.1 * i));
    Shape shape;
    std::vector<double> want = einsum_by_definition(k.eq, ts, shape);
    INFO(k.eq);
    check_values(einsum(k.eq, ts), shape, want, 1e-4);
  }
}
