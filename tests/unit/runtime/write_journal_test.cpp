// The write journal (runtime/write_journal.h): before an in-place write into
// a watched buffer it saves exactly the region the write can change (the
// rows of index_copy_, the elements of index_put_, else the written view),
// rolling back restores the buffer bit for bit, newest write first, and
// writes into storage it does not watch cost nothing.
#include <catch2/catch.hpp>

#include <cstring>

#include "ops/op_compose.h"
#include "ops/registry.h"
#include "runtime/write_journal.h"

using namespace pt2web;

namespace {

Tensor counting(const Shape& shape) {
  Tensor t = Tensor::empty(DType::Float32, shape);
  float* p = t.data<float>();
  for (int64_t i = 0; i < t.numel(); ++i) p[i] = static_cast<float>(i);
  return t;
}

Tensor filled(const Shape& shape, float value) {
  Tensor t = Tensor::empty(DType::Float32, shape);
  std::fill(t.data<float>(), t.data<float>() + t.numel(), value);
  return t;
}

Tensor longs(std::vector<int64_t> values) {
  Tensor t = Tensor::empty(DType::Int64, {static_cast<int64_t>(values.size())});
  std::copy(values.begin(), values.end(), t.data<int64_t>());
  return t;
}

bool same_bits(const Tensor& a, const Tensor& b) {
  Tensor x = a.contiguous(), y = b.contiguous();
  return x.sizes() == y.sizes() && std::memcmp(x.raw_data(), y.raw_data(), x.nbytes()) == 0;
}

// What the executor does for one node: tell the journal, then run the kernel.
void run_in_place(WriteJournal& journal, const std::string& op, std::vector<Value> args) {
  const OpEntry* entry = op_table().find(op);
  REQUIRE(entry != nullptr);
  PreparedNode node;
  node.op = entry;
  for (size_t i = 0; i < entry->schema.arguments.size(); ++i)
    if (entry->schema.arguments[i].is_mutable) node.written_args.push_back(static_cast<int>(i));
  OpCall call(entry->schema, args, nullptr);
  journal.before_in_place_write(node, call);
  run_op(op, std::move(args));
}

}  // namespace

TEST_CASE("the journal saves the rows index_copy_ replaces and puts them back", "[write_journal]") {
  std::map<std::string, Tensor> buffers = {{"cache", counting({1, 256, 64})}};
  const Tensor original = buffers["cache"].clone();
  WriteJournal journal;
  journal.watch(buffers, {"cache"});
  run_in_place(journal, "aten::index_copy_.default",
               {arg(buffers["cache"]), arg(int64_t{1}), arg(longs({7, 200})), arg(filled({1, 2, 64}, -1.0f))});
  CHECK(journal.saved_elements() == 2 * 64);  // two rows, not the cache
  CHECK_FALSE(same_bits(buffers["cache"], original));
  journal.roll_back();
  CHECK(same_bits(buffers["cache"], original));
  CHECK(journal.saved_elements() == 0);
}

TEST_CASE("the journal saves the elements index_put_ replaces, accumulating and repeated indices too",
          "[write_journal]") {
  std::map<std::string, Tensor> buffers = {{"table", counting({5, 6})}};
  const Tensor original = buffers["table"].clone();
  WriteJournal journal;
  journal.watch(buffers, {"table"});
  run_in_place(journal, "aten::index_put_.default",
               {arg(buffers["table"]), Value::from_optional_tensors({longs({1, 1, 4}), longs({0, 0, 5})}),
                arg(filled({3}, 10.0f)), Value::from_bool(true)});
  CHECK(journal.saved_elements() == 3);
  CHECK(buffers["table"].data<float>()[6] == 6.0f + 20.0f);
  journal.roll_back();
  CHECK(same_bits(buffers["table"], original));
}

TEST_CASE("writes twice into one region roll back to the value before the first", "[write_journal]") {
  std::map<std::string, Tensor> buffers = {{"count", counting({4, 3})}};
  const Tensor original = buffers["count"].clone();
  WriteJournal journal;
  journal.watch(buffers, {"count"});
  // A view of rows 1..2 written by add_, then the whole buffer by mul_.
  Tensor rows = buffers["count"].as_strided({2, 3}, {3, 1}, 3);
  run_in_place(journal, "aten::add_.Tensor", {arg(rows), arg(filled({2, 3}, 1.0f))});
  CHECK(journal.saved_elements() == 6);
  run_in_place(journal, "aten::mul_.Tensor", {arg(buffers["count"]), arg(filled({4, 3}, 3.0f))});
  CHECK(journal.saved_elements() == 6 + 12);
  journal.roll_back();
  CHECK(same_bits(buffers["count"], original));
}

TEST_CASE("writes outside the watched buffers are not saved, and a cleared journal keeps the writes",
          "[write_journal]") {
  std::map<std::string, Tensor> buffers = {{"state", counting({8})}, {"other", counting({8})}};
  WriteJournal journal;
  journal.watch(buffers, {"state"});
  Tensor scratch = counting({8});
  run_in_place(journal, "aten::add_.Tensor", {arg(scratch), arg(filled({8}, 1.0f))});
  run_in_place(journal, "aten::add_.Tensor", {arg(buffers["other"]), arg(filled({8}, 1.0f))});
  CHECK(journal.saved_elements() == 0);
  run_in_place(journal, "aten::add_.Tensor", {arg(buffers["state"]), arg(filled({8}, 1.0f))});
  CHECK(journal.saved_elements() == 8);
  journal.clear();
  journal.roll_back();
  CHECK(buffers["state"].data<float>()[0] == 1.0f);
}
