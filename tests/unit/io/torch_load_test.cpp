// torch_load against pickles assembled here opcode by opcode (inside small
// torch.save-shaped zips) and against the real torch.save records of the
// legacy .pt2 fixtures, compared with what torch reported in meta.json.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "io/torch_load.h"
#include "io/zip_archive.h"
#include "tensor/dtype.h"
#include "util/error.h"
#include "test_data_dirs.h"

using namespace pt2web;

namespace {

// --- a minimal stored-only ZIP writer ---------------------------------------

struct Record {
  std::string name;
  std::string data;
};

void put16(std::string& out, uint64_t v) {
  for (int k = 0; k < 2; ++k) out.push_back(static_cast<char>(v >> (8 * k)));
}
void put32(std::string& out, uint64_t v) {
  for (int k = 0; k < 4; ++k) out.push_back(static_cast<char>(v >> (8 * k)));
}

// Data of every record starts at (a multiple of 64) + misalign bytes from the
// start of the zip, like torch's writer when misalign is 0. CRCs are left 0
// (the reader does not check them).
std::string make_zip(const std::vector<Record>& records, size_t misalign = 0) {
  std::string out;
  std::vector<size_t> offsets;
  for (const Record& r : records) {
    offsets.push_back(out.size());
    size_t start = out.size() + 30 + r.name.size() + 4;
    size_t padding = (64 + misalign - start % 64) % 64;
    out += "PK\x03\x04";
    put16(out, 20);
    put16(out, 0);
    put16(out, 0);
    put32(out, 0);
    put32(out, 0);
    put32(out, r.data.size());
    put32(out, r.data.size());
    put16(out, r.name.size());
    put16(out, 4 + padding);
    out += r.name + "FB";
    put16(out, padding);
    out += std::string(padding, 'Z') + r.data;
  }
  size_t dir = out.size();
  for (size_t k = 0; k < records.size(); ++k) {
    const Record& r = records[k];
    out += "PK\x01\x02";
    put16(out, 20);
    put16(out, 20);
    put16(out, 0);
    put16(out, 0);
    put32(out, 0);
    put32(out, 0);
    put32(out, r.data.size());
    put32(out, r.data.size());
    put16(out, r.name.size());
    put32(out, 0);  // extra and comment lengths
    put32(out, 0);  // disk and internal attributes
    put32(out, 0);
    put32(out, offsets[k]);
    out += r.name;
  }
  size_t dir_size = out.size() - dir;
  out += "PK\x05\x06";
  put32(out, 0);
  put16(out, records.size());
  put16(out, records.size());
  put32(out, dir_size);
  put32(out, dir);
  put16(out, 0);
  return out;
}

// --- a pickle assembler -----------------------------------------------------

class Pickle {
 public:
  explicit Pickle(int protocol = 2) { op(0x80).byte(protocol); }

  Pickle& op(uint8_t code) { return byte(code); }
  Pickle& byte(int v) {
    out_.push_back(static_cast<char>(v));
    return *this;
  }
  Pickle& raw(const std::string& bytes) {
    out_ += bytes;
    return *this;
  }
  Pickle& le(uint64_t v, int n) {
    for (int k = 0; k < n; ++k) byte(static_cast<int>((v >> (8 * k)) & 0xFF));
    return *this;
  }

  Pickle& mark() { return op('('); }
  Pickle& tuple() { return op('t'); }
  Pickle& none() { return op('N'); }
  Pickle& boolean(bool v) { return op(v ? 0x88 : 0x89); }
  Pickle& reduce() { return op('R'); }
  Pickle& stop() { return op('.'); }
  Pickle& empty_dict() { return op('}'); }
  Pickle& empty_tuple() { return op(')'); }
  Pickle& setitems() { return op('u'); }
  Pickle& put(int index) { return op('q').byte(index); }
  Pickle& get(int index) { return op('h').byte(index); }
  Pickle& global(const std::string& module, const std::string& name) {
    return op('c').raw(module + "\n" + name + "\n");
  }
  Pickle& str(const std::string& s) { return op('X').le(s.size(), 4).raw(s); }
  Pickle& integer(int64_t v) {
    if (v >= 0 && v < 256) return op('K').byte(static_cast<int>(v));
    if (v >= INT32_MIN && v <= INT32_MAX) return op('J').le(static_cast<uint32_t>(v), 4);
    return op(0x8a).byte(8).le(static_cast<uint64_t>(v), 8);
  }
  Pickle& ints(const std::vector<int64_t>& values) {
    mark();
    for (int64_t v : values) integer(v);
    return tuple();
  }
  Pickle& float64(double v) {
    uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    op('G');
    for (int k = 7; k >= 0; --k) byte(static_cast<int>((bits >> (8 * k)) & 0xFF));
    return *this;
  }
  Pickle& empty_ordered_dict() {
    return global("collections", "OrderedDict").empty_tuple().reduce();
  }
  // ("storage", torch.<type>, key, "cpu", numel) BINPERSID
  Pickle& storage(const std::string& type, const std::string& key, int64_t numel) {
    mark().str("storage").global("torch", type).str(key).str("cpu").integer(numel).tuple();
    return op('Q');
  }
  // _rebuild_tensor_v2(storage, offset, size, stride, False, OrderedDict())
  Pickle& tensor(const std::string& type, const std::string& key, int64_t numel,
                 int64_t offset, const std::vector<int64_t>& sizes,
                 const std::vector<int64_t>& strides) {
    global("torch._utils", "_rebuild_tensor_v2").mark();
    storage(type, key, numel).integer(offset).ints(sizes).ints(strides);
    return boolean(false).empty_ordered_dict().tuple().reduce();
  }

  const std::string& bytes() const { return out_; }

 private:
  std::string out_;
};

std::string floats(const std::vector<float>& values) {
  std::string out(values.size() * 4, '\0');
  std::memcpy(&out[0], values.data(), out.size());
  return out;
}

Bytes share(const std::string& data) {
  return std::make_shared<const std::vector<uint8_t>>(data.begin(), data.end());
}

PyValue load(const std::string& zip, const std::string& label = "test.pt") {
  return torch_load(ZipArchive::open(share(zip), label));
}

PyValue load(const Pickle& pickle, std::vector<Record> storages = {},
             const std::string& label = "test.pt") {
  storages.insert(storages.begin(), {"archive/data.pkl", pickle.bytes()});
  return load(make_zip(storages), label);
}

Error error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e;
  }
  FAIL("expected pt2web::Error");
  return Error(ErrorCode::Internal, "unreachable");
}

bool points_into(const Tensor& t, const Bytes& bytes) {
  const uint8_t* p = t.storage()->data();
  return p >= bytes->data() && p < bytes->data() + bytes->size();
}

std::vector<uint8_t> read_fixture(const std::string& relative) {
  std::string path = testing::fixtures_dir() + "/" + relative;
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.good());
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

TEST_CASE("torch_load: a state dict of parameters and buffers") {
  Pickle p;
  p.empty_dict().put(0).mark();
  p.str("fc.weight").global("torch._utils", "_rebuild_parameter");
  p.tensor("FloatStorage", "0", 6, 0, {2, 3}, {3, 1});
  p.boolean(true).empty_ordered_dict().op(0x87).reduce();  // TUPLE3, REDUCE
  p.str("steps").tensor("LongStorage", "1", 1, 0, {}, {});
  p.setitems().stop();

  std::string zip = make_zip({{"archive/data.pkl", p.bytes()},
                              {"archive/byteorder", "little"},
                              {"archive/data/0", floats({1, 2, 3, 4, 5, 6})},
                              {"archive/data/1", std::string("\x07\0\0\0\0\0\0\0", 8)},
                              {"archive/version", "3\n"}});
  Bytes bytes = share(zip);
  PyValue dict = torch_load(ZipArchive::open(bytes, "sd.pt"));

  REQUIRE(dict.kind == PyValue::Kind::Dict);
  REQUIRE(dict.keys.size() == 2);
  CHECK(dict.keys[0].s == "fc.weight");
  CHECK(dict.keys[1].s == "steps");
  const Tensor& w = dict.get("fc.weight")->tensor;
  CHECK(w.dtype() == DType::Float32);
  CHECK(w.sizes() == Shape{2, 3});
  CHECK(w.strides() == Shape{3, 1});
  CHECK(w.item_as_double(5) == 6.0);
  CHECK(points_into(w, bytes));  // aligned little-endian data is borrowed
  const Tensor& steps = dict.get("steps")->tensor;
  CHECK(steps.dtype() == DType::Int64);
  CHECK(steps.dim() == 0);
  CHECK(steps.item_as_int() == 7);
}

TEST_CASE("torch_load: borrowed tensors keep the archive bytes alive") {
  Pickle p;
  p.tensor("FloatStorage", "0", 2, 0, {2}, {1}).stop();
  Tensor t;
  {
    PyValue v = load(p, {{"archive/data/0", floats({1.5f, -2.5f})}});
    t = v.tensor;
  }
  CHECK(t.item_as_double(0) == 1.5);
  CHECK(t.item_as_double(1) == -2.5);
}

TEST_CASE("torch_load: non-contiguous strides and storage offsets") {
  // Storage 0..5 viewed as [[1, 4], [2, 5]]: offset 1, stride (1, 3).
  Pickle p;
  p.mark().tensor("FloatStorage", "0", 6, 1, {2, 2}, {1, 3});
  p.tensor("FloatStorage", "0", 6, 0, {3}, {2}).tuple().stop();
  PyValue v = load(p, {{"archive/data/0", floats({0, 1, 2, 3, 4, 5})}});
  REQUIRE(v.kind == PyValue::Kind::Tuple);
  const Tensor& t = v.items[0].tensor;
  CHECK_FALSE(t.is_contiguous());
  CHECK(t.storage_offset() == 1);
  CHECK(t.item_as_double(0) == 1.0);
  CHECK(t.item_as_double(1) == 4.0);
  CHECK(t.item_as_double(2) == 2.0);
  CHECK(t.item_as_double(3) == 5.0);
  const Tensor& every_other = v.items[1].tensor;
  CHECK(every_other.item_as_double(2) == 4.0);
  CHECK(every_other.storage() == t.storage());  // one record, one Storage
}

TEST_CASE("torch_load: tensors and storages are bounds-checked") {
  std::vector<Record> six = {{"archive/data/0", floats({0, 1, 2, 3, 4, 5})}};
  auto load_view = [&](int64_t offset, std::vector<int64_t> sizes, std::vector<int64_t> strides) {
    Pickle p;
    p.tensor("FloatStorage", "0", 6, offset, sizes, strides).stop();
    return error_of([&] { load(p, six, "bounds.pt"); });
  };

  Error past_end = load_view(1, {3, 2}, {1, 3});  // reaches element 1 + 2 + 3 = 6
  CHECK(past_end.code() == ErrorCode::BadFile);
  CHECK_THAT(past_end.what(), Catch::StartsWith("bounds.pt: archive/data.pkl at byte ") &&
                                  Catch::Contains("storage '0': ") &&
                                  Catch::Contains("needs 7 elements but the storage has 6"));
  CHECK_THAT(load_view(0, {2}, {-1}).what(), Catch::Contains("negative"));
  CHECK_THAT(load_view(-1, {2}, {1}).what(), Catch::Contains("negative storage offset"));
  CHECK_THAT(load_view(0, {2, 2}, {1}).what(), Catch::Contains("differ in rank"));
  CHECK_THAT(load_view(0, {3, INT64_MAX / 2}, {INT64_MAX / 2, 1}).what(),
             Catch::Contains("overflows"));
  CHECK_THAT(load_view(7, {0}, {1}).what(), Catch::Contains("needs 7 elements"));

  Pickle ok;
  ok.tensor("FloatStorage", "0", 6, 6, {0}, {1}).stop();  // empty at the end: fine
  CHECK(load(ok, six).tensor.numel() == 0);

  Pickle wrong_size;
  wrong_size.tensor("FloatStorage", "0", 5, 0, {5}, {1}).stop();
  CHECK_THAT(error_of([&] { load(wrong_size, six); }).what(),
             Catch::Contains("'archive/data/0' holds 24 bytes") &&
                 Catch::Contains("5 elements of float32"));

  Pickle missing;
  missing.tensor("FloatStorage", "9", 1, 0, {1}, {1}).stop();
  CHECK_THAT(error_of([&] { load(missing, six); }).what(),
             Catch::Contains("storage record 'archive/data/9' is missing"));
}

TEST_CASE("torch_load: globals outside the allowlist are rejected") {
  Pickle p;
  p.global("os", "system").str("echo hi").op(0x85).reduce().stop();
  Error e = error_of([&] { load(p, {}, "evil.pt"); });
  CHECK(e.code() == ErrorCode::BadFile);
  CHECK_THAT(e.what(), Catch::Contains("evil.pt") && Catch::Contains("at byte 2") &&
                           Catch::Contains("pickle global 'os.system' is not allowed"));

  Pickle stacked(4);
  stacked.op(0x8c).byte(8).raw("builtins").op(0x8c).byte(4).raw("eval").op(0x93).stop();
  CHECK_THAT(error_of([&] { load(stacked); }).what(),
             Catch::Contains("'builtins.eval' is not allowed"));

  Pickle not_callable;
  not_callable.global("torch", "float32").empty_tuple().reduce().stop();
  CHECK_THAT(error_of([&] { load(not_callable); }).what(),
             Catch::Contains("'torch.float32' cannot be called"));
}

TEST_CASE("torch_load: protocol 4 and 5 opcodes") {
  Pickle p(4);
  p.op(0x95).le(0, 8);                                        // FRAME
  p.mark();
  p.op(0x8c).byte(5).raw("short").op(0x94);                   // SHORT_BINUNICODE, MEMOIZE
  p.op(0x8d).le(4, 8).raw("long");                            // BINUNICODE8
  p.get(0);                                                   // the memoized "short"
  p.op(0x8c).byte(5).raw("torch").op(0x8c).byte(7).raw("float16").op(0x93);  // STACK_GLOBAL
  p.op(0x8f).mark().integer(1).integer(2).op(0x90);           // EMPTY_SET, ADDITEMS
  p.mark().integer(3).op(0x91);                               // FROZENSET
  p.op(0x8a).byte(2).le(0xFF7F, 2);                           // LONG1 -129
  p.op(0x8b).le(1, 4).byte(0x05);                             // LONG4 5
  p.op('J').le(static_cast<uint32_t>(-7), 4);                 // BININT -7
  p.op('M').le(513, 2);                                       // BININT2
  p.float64(-0.25).none().boolean(true).boolean(false);
  p.op('C').byte(2).raw("ab");                                // SHORT_BINBYTES
  p.op('B').le(1, 4).raw("c");                                // BINBYTES
  p.op(']').mark().integer(10).integer(11).op('e');           // EMPTY_LIST, APPENDS
  p.mark().str("k").integer(1).op('d');                       // DICT
  p.integer(99).op('0');                                      // POP
  p.mark().integer(98).op('1');                               // POP_MARK
  p.integer(8).op('2').op(0x86);                              // DUP, TUPLE2
  p.op('l');                                                  // LIST closes the first MARK
  p.stop();

  PyValue v = load(p);
  REQUIRE(v.kind == PyValue::Kind::List);
  const auto& items = v.items;
  REQUIRE(items.size() == 19);
  CHECK(items[0].s == "short");
  CHECK(items[1].s == "long");
  CHECK(items[2].s == "short");
  CHECK(items[3].s == "float16");
  CHECK(items[4].kind == PyValue::Kind::List);
  CHECK(items[4].items.size() == 2);
  CHECK(items[5].items[0].i == 3);
  CHECK(items[6].i == -129);
  CHECK(items[7].i == 5);
  CHECK(items[8].i == -7);
  CHECK(items[9].i == 513);
  CHECK(items[10].f == -0.25);
  CHECK(items[11].is_none());
  CHECK(items[12].b);
  CHECK_FALSE(items[13].b);
  CHECK(items[14].s == "ab");
  CHECK(items[15].s == "c");
  CHECK(items[16].items.size() == 2);
  CHECK(items[17].get("k")->i == 1);
  // POP and POP_MARK removed their values; DUP doubled the 8 of the last tuple.
  CHECK(items[18].items.size() == 2);
  CHECK(items[18].items[1].i == 8);
}

TEST_CASE("torch_load: Python ints beyond int64 are rejected") {
  Pickle big;
  big.op(0x8a).byte(9).le(0, 8).byte(1).stop();  // 2**64
  Error e = error_of([&] { load(big); });
  CHECK(e.code() == ErrorCode::BadFile);
  CHECK_THAT(e.what(), Catch::Contains("does not fit in int64"));

  Pickle edge;
  edge.mark().op(0x8a).byte(9).le(UINT64_MAX, 8).byte(0xFF);  // -1 in 9 bytes
  edge.integer(INT64_MIN).integer(INT64_MAX).tuple().stop();
  PyValue v = load(edge);
  CHECK(v.items[0].i == -1);
  CHECK(v.items[1].i == INT64_MIN);
  CHECK(v.items[2].i == INT64_MAX);

  Pickle wrapped;  // 2**63 in 9 bytes: the sign byte is 0 but bit 63 is set
  wrapped.op(0x8a).byte(9).le(uint64_t(1) << 63, 8).byte(0).stop();
  CHECK_THROWS_AS(load(wrapped), Error);
}

TEST_CASE("torch_load: pickle errors name the byte offset") {
  Pickle unknown;
  unknown.op('I').raw("1\n").stop();
  CHECK_THAT(error_of([&] { load(unknown, {}, "u.pt"); }).what(),
             Catch::Equals("u.pt: archive/data.pkl at byte 2: unsupported pickle opcode 0x49"));

  Pickle underflow;
  underflow.op('a').stop();
  CHECK_THAT(error_of([&] { load(underflow); }).what(),
             Catch::Contains("at byte 2: stack underflow"));

  Pickle memo;
  memo.get(3).stop();
  CHECK_THAT(error_of([&] { load(memo); }).what(), Catch::Contains("memo entry 3"));

  Pickle protocol(6);
  protocol.stop();
  CHECK_THAT(error_of([&] { load(protocol); }).what(), Catch::Contains("protocol 6"));
}

TEST_CASE("torch_load: every truncation of a pickle throws") {
  Pickle p;
  p.empty_dict().put(0).mark().str("w");
  p.tensor("FloatStorage", "0", 2, 0, {2}, {1});
  p.str("n").float64(1.0).setitems().stop();
  std::vector<Record> storage = {{"archive/data/0", floats({1, 2})}};
  CHECK(load(p, storage).keys.size() == 2);
  for (size_t n = 0; n + 1 < p.bytes().size(); ++n) {
    INFO("pickle cut to " << n << " bytes");
    std::string bytes = p.bytes().substr(0, n);
    std::vector<Record> records = {{"archive/data.pkl", bytes}, storage[0]};
    Error e = error_of([&] { load(make_zip(records)); });
    CHECK(e.code() == ErrorCode::BadFile);
  }
}

TEST_CASE("torch_load: damaged pickles throw Error or load") {
  Pickle p;
  p.empty_dict().put(0).mark().str("w");
  p.tensor("FloatStorage", "0", 4, 0, {2, 2}, {2, 1});
  p.str("n").integer(300).str("l").op(']').mark().get(0).op('e').setitems().stop();
  Record storage = {"archive/data/0", floats({1, 2, 3, 4})};
  for (size_t at = 2; at < p.bytes().size(); ++at) {
    for (int value : {0x00, 0xFF, 0x7F, p.bytes()[at] ^ 0x01}) {
      std::string bytes = p.bytes();
      bytes[at] = static_cast<char>(value);
      try {
        load(make_zip({{"archive/data.pkl", bytes}, storage}));
      } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::BadFile);
      }
    }
  }
}

TEST_CASE("torch_load: OrderedDict, Size, device, dtypes, bytes and rebuild variants") {
  Pickle p;
  p.mark();
  // OrderedDict([("a", 1), ("b", 2)]) with an attribute state, as
  // state_dict()'s _metadata is pickled.
  p.global("collections", "OrderedDict");
  p.mark().str("a").integer(1).op(0x86).str("b").integer(2).op(0x86).op('l').op(0x85).reduce();
  p.empty_dict().str("_metadata").none().op('s').op('b');
  p.global("torch", "Size").mark().integer(2).integer(3).tuple().op(0x85).reduce();
  p.global("torch", "device").str("cuda").integer(0).op(0x86).reduce();
  p.global("torch", "bfloat16");
  p.global("_codecs", "encode").str("\xc3\xa9" "a").str("latin1").op(0x86).reduce();
  p.global("builtins", "set").mark().integer(4).op('l').op(0x85).reduce();
  // _rebuild_from_type_v2(_rebuild_tensor_v2, torch.Tensor, (args...), {})
  p.global("torch._tensor", "_rebuild_from_type_v2").mark();
  p.global("torch._utils", "_rebuild_tensor_v2").global("torch", "Tensor").mark();
  p.storage("FloatStorage", "0", 2).integer(0).ints({2}).ints({1});
  p.boolean(false).empty_ordered_dict().tuple().empty_dict().tuple().reduce();
  // _rebuild_tensor_v3 over an untyped storage with an explicit dtype
  p.global("torch._utils", "_rebuild_tensor_v3").mark();
  p.storage("UntypedStorage", "1", 4).integer(0).ints({2}).ints({1});
  p.boolean(false).empty_ordered_dict().global("torch", "int16").tuple().reduce();
  // Parameter(tensor) through NEWOBJ-style call and _rebuild_parameter_with_state
  p.global("torch.nn.parameter", "Parameter");
  p.tensor("FloatStorage", "0", 2, 1, {1}, {1}).boolean(false).op(0x86).reduce();
  p.global("torch._utils", "_rebuild_parameter_with_state").mark();
  p.tensor("FloatStorage", "0", 2, 0, {1}, {1}).boolean(true).empty_ordered_dict();
  p.empty_dict().str("_dynamo_static_input_type").str("unguarded").op('s');
  p.tuple().reduce();
  p.tuple().stop();

  PyValue v = load(p, {{"archive/data/0", floats({0.5f, 1.5f})},
                       {"archive/data/1", std::string("\x01\x00\xff\xff", 4)}});
  REQUIRE(v.kind == PyValue::Kind::Tuple);
  REQUIRE(v.items.size() == 10);
  const PyValue& od = v.items[0];
  REQUIRE(od.kind == PyValue::Kind::Dict);
  CHECK(od.keys.size() == 2);
  CHECK(od.get("b")->i == 2);
  CHECK(v.items[1].kind == PyValue::Kind::Tuple);
  CHECK(v.items[1].items[1].i == 3);
  CHECK(v.items[2].s == "cuda:0");
  CHECK(v.items[3].s == "bfloat16");
  CHECK(v.items[4].s == "\xe9" "a");
  CHECK(v.items[5].kind == PyValue::Kind::List);
  CHECK(v.items[6].tensor.item_as_double(1) == 1.5);
  const Tensor& shorts = v.items[7].tensor;
  CHECK(shorts.dtype() == DType::Int16);
  CHECK(shorts.item_as_int(0) == 1);
  CHECK(shorts.item_as_int(1) == -1);
  CHECK(v.items[8].tensor.item_as_double(0) == 1.5);
  CHECK(v.items[9].tensor.item_as_double(0) == 0.5);
}

TEST_CASE("torch_load: big-endian archives are byte-swapped copies") {
  Pickle p;
  p.tensor("FloatStorage", "0", 2, 0, {2}, {1}).stop();
  std::string be = floats({3.0f, -1.0f});
  for (size_t k = 0; k < be.size(); k += 4) {
    std::swap(be[k], be[k + 3]);
    std::swap(be[k + 1], be[k + 2]);
  }
  Bytes bytes = share(make_zip({{"archive/data.pkl", p.bytes()},
                                {"archive/byteorder", "big"},
                                {"archive/data/0", be}}));
  PyValue v = torch_load(ZipArchive::open(bytes, "be.pt"));
  CHECK(v.tensor.item_as_double(0) == 3.0);
  CHECK(v.tensor.item_as_double(1) == -1.0);
  CHECK_FALSE(points_into(v.tensor, bytes));

  Bytes odd = share(make_zip({{"archive/data.pkl", p.bytes()},
                              {"archive/byteorder", "middle"},
                              {"archive/data/0", be}}));
  CHECK_THAT(error_of([&] { torch_load(ZipArchive::open(odd, "odd.pt")); }).what(),
             Catch::Contains("'archive/byteorder' holds 'middle'"));
}

TEST_CASE("torch_load: misaligned storages are copied, aligned ones borrowed") {
  Pickle p;
  p.tensor("FloatStorage", "0", 3, 0, {3}, {1}).stop();
  std::vector<Record> records = {{"archive/data.pkl", p.bytes()},
                                 {"archive/data/0", floats({1, 2, 3})}};
  for (size_t misalign : {0, 1, 2, 3, 4}) {
    INFO("data at 64k + " << misalign);
    Bytes bytes = share(make_zip(records, misalign));
    PyValue v = torch_load(ZipArchive::open(bytes, "align.pt"));
    const Tensor& t = v.tensor;
    CHECK(reinterpret_cast<uintptr_t>(t.storage()->data()) % 4 == 0);
    CHECK(points_into(t, bytes) == (misalign % 4 == 0));
    CHECK(t.item_as_double(2) == 3.0);
  }
}

TEST_CASE("torch_load: archive structure errors") {
  Pickle p;
  p.none().stop();
  CHECK(load(make_zip({{"model/data.pkl", p.bytes()}})).is_none());  // any root name

  CHECK_THAT(error_of([&] { load(make_zip({{"a/data.pkl", p.bytes()}, {"b/x", ""}}), "two.pt"); })
                 .what(),
             Catch::Contains("two.pt") && Catch::Contains("not all inside one folder"));
  CHECK_THAT(error_of([&] { load(make_zip({{"data.pkl", p.bytes()}})); }).what(),
             Catch::Contains("not inside a top-level folder"));
  CHECK_THAT(error_of([&] { load(make_zip({{"archive/other", ""}})); }).what(),
             Catch::Contains("no 'archive/data.pkl'"));
  CHECK_THAT(error_of([&] { load(make_zip({})); }).what(), Catch::Contains("empty zip"));
}

TEST_CASE("torch_load: cyclic and exponentially shared containers fail cleanly") {
  Pickle cycle;  // l = []; l.append(l)
  cycle.op(']').put(0).get(0).op('a').stop();
  CHECK_THAT(error_of([&] { load(cycle); }).what(), Catch::Contains("nest deeper"));

  Pickle doubling;  // l = [l, l] sixty times: 2**60 leaves when expanded
  doubling.op(']').put(0).op('0');
  for (int k = 0; k < 60; ++k) doubling.op(']').mark().get(0).get(0).op('e').put(0).op('0');
  doubling.get(0).stop();
  CHECK_THAT(error_of([&] { load(doubling); }).what(), Catch::Contains("too many values"));
}

// --- the real torch.save records of the fixtures ------------------------------

namespace {

// Compares a loaded dict of tensors with meta.json's {"name": [dtype, shape]}.
void check_against_meta(const PyValue& dict, const nlohmann::ordered_json& meta) {
  REQUIRE(dict.kind == PyValue::Kind::Dict);
  REQUIRE(dict.keys.size() == meta.size());
  size_t k = 0;
  for (auto it = meta.begin(); it != meta.end(); ++it, ++k) {
    INFO(it.key());
    CHECK(dict.keys[k].s == it.key());  // same insertion order as torch
    const PyValue* value = dict.get(it.key());
    REQUIRE(value != nullptr);
    REQUIRE(value->kind == PyValue::Kind::Tensor);
    const Tensor& t = value->tensor;
    CHECK(dtype_name(t.dtype()) == (*it)[0].get<std::string>());
    CHECK(t.sizes() == (*it)[1].get<Shape>());
    CHECK(t.is_contiguous());
    CHECK(reinterpret_cast<uintptr_t>(t.storage()->data()) % element_size(t.dtype()) == 0);
    for (int64_t i = 0; i < t.numel(); ++i) CHECK(std::isfinite(t.item_as_double(i)));
  }
}

}  // namespace

TEST_CASE("torch_load: fixture state dicts, constants and example inputs") {
  struct Expect {
    const char* name;
    Shape input_shape;
  };
  // Example input shapes as torch saved them (read with Python's pickletools).
  for (const Expect& expect : {Expect{"mlp", {4, 16}}, Expect{"mlp_dynamic", {8, 16}},
                               Expect{"digits_cnn", {4, 1, 8, 8}},
                               Expect{"constants", {2, 5}}, Expect{"bf16_mlp", {3, 8}}}) {
    std::string name = expect.name;
    INFO(name);
    std::vector<uint8_t> meta_bytes = read_fixture(name + "/meta.json");
    auto meta = nlohmann::ordered_json::parse(meta_bytes.begin(), meta_bytes.end());
    Bytes bytes = std::make_shared<const std::vector<uint8_t>>(read_fixture(name + "/model.pt2"));
    ZipArchive pt2 = ZipArchive::open(bytes, name + "/model.pt2");

    PyValue state = torch_load(pt2.open_nested("serialized_state_dict.pt"));
    check_against_meta(state, meta["state_dict"]);
    PyValue constants = torch_load(pt2.open_nested("serialized_constants.pt"));
    check_against_meta(constants, meta["constants"]);

    PyValue inputs = torch_load(pt2.open_nested("serialized_example_inputs.pt"));
    REQUIRE(inputs.kind == PyValue::Kind::Tuple);
    REQUIRE(inputs.items.size() == 2);
    const PyValue& args = inputs.items[0];
    const PyValue& kwargs = inputs.items[1];
    REQUIRE(args.kind == PyValue::Kind::Tuple);
    REQUIRE(args.items.size() == 1);
    CHECK(kwargs.kind == PyValue::Kind::Dict);
    CHECK(kwargs.keys.empty());
    CHECK(args.items[0].tensor.sizes() == expect.input_shape);
    CHECK(args.items[0].tensor.dtype() == DType::Float32);
  }
}

TEST_CASE("torch_load: bf16_mlp weights are bfloat16 parameters with state") {
  Bytes bytes = std::make_shared<const std::vector<uint8_t>>(read_fixture("bf16_mlp/model.pt2"));
  ZipArchive pt2 = ZipArchive::open(bytes, "bf16_mlp/model.pt2");
  PyValue state = torch_load(pt2.open_nested("serialized_state_dict.pt"));
  const PyValue* weight = state.get("fc1.weight");
  REQUIRE(weight != nullptr);
  CHECK(weight->tensor.dtype() == DType::BFloat16);
  CHECK(weight->tensor.sizes() == Shape{16, 8});
  // The first stored values, decoded from the record with Python's struct.
  CHECK(weight->tensor.item_as_double(0) == 0.11669921875);
  CHECK(weight->tensor.item_as_double(1) == -0.271484375);
  double sum = 0;
  for (int64_t i = 0; i < weight->tensor.numel(); ++i) sum += std::fabs(weight->tensor.item_as_double(i));
  CHECK(sum > 0.0);
  // nn.Linear's default init keeps |w| <= 1/sqrt(in_features).
  for (int64_t i = 0; i < weight->tensor.numel(); ++i)
    CHECK(std::fabs(weight->tensor.item_as_double(i)) <= 1.0 / std::sqrt(8.0) + 1e-2);
}
