#include "io/torch_load.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "tensor/dtype.h"
#include "tensor/tensor.h"
#include "tensor/view_bounds.h"
#include "util/error.h"

namespace pt2web {
namespace {

// ---------------------------------------------------------------------------
// Objects of the restricted unpickler.

struct Obj;
using ObjPtr = std::shared_ptr<Obj>;

// A Python object on the unpickler's stack or in its memo. Containers are
// shared by pointer, because the memo and the stack alias them exactly as
// Python references do: a list stored with BINPUT and filled by a later
// APPENDS must show the appended items through every reference.
struct Obj {
  enum class Kind { None, Bool, Int, Float, Str, Bytes, Tuple, List, Dict, Set, Global, Storage, Tensor };

  Kind kind = Kind::None;
  bool b = false;
  int64_t i = 0;               // Int
  double f = 0.0;
  std::string s;               // Str, Bytes; Global: "module.name"; Storage: record key
  std::vector<ObjPtr> items;   // Tuple, List, Set elements; Dict values
  std::vector<ObjPtr> keys;    // Dict keys, parallel to items
  std::unordered_map<std::string, size_t> key_index;  // Dict: key identity -> position
  DType dtype = DType::UInt8;  // Storage: element type of the storage class
  Tensor tensor;
};

const char* kind_name(Obj::Kind kind) {
  switch (kind) {
    case Obj::Kind::None: return "None";
    case Obj::Kind::Bool: return "bool";
    case Obj::Kind::Int: return "int";
    case Obj::Kind::Float: return "float";
    case Obj::Kind::Str: return "str";
    case Obj::Kind::Bytes: return "bytes";
    case Obj::Kind::Tuple: return "tuple";
    case Obj::Kind::List: return "list";
    case Obj::Kind::Dict: return "dict";
    case Obj::Kind::Set: return "set";
    case Obj::Kind::Global: return "global";
    case Obj::Kind::Storage: return "storage";
    case Obj::Kind::Tensor: return "tensor";
  }
  return "?";
}

ObjPtr make_scalar(Obj::Kind kind) {
  auto obj = std::make_shared<Obj>();
  obj->kind = kind;
  return obj;
}

// ---------------------------------------------------------------------------
// The allowlist of globals.

// torch.<X>Storage classes and the element type of their records.
const std::map<std::string, DType>& storage_classes() {
  static const std::map<std::string, DType> table = {
      {"torch.DoubleStorage", DType::Float64},   {"torch.FloatStorage", DType::Float32},
      {"torch.HalfStorage", DType::Float16},     {"torch.BFloat16Storage", DType::BFloat16},
      {"torch.LongStorage", DType::Int64},       {"torch.IntStorage", DType::Int32},
      {"torch.ShortStorage", DType::Int16},      {"torch.CharStorage", DType::Int8},
      {"torch.ByteStorage", DType::UInt8},       {"torch.BoolStorage", DType::Bool},
      {"torch.ComplexFloatStorage", DType::Complex64},
      {"torch.ComplexDoubleStorage", DType::Complex128},
      {"torch.UntypedStorage", DType::UInt8},  // numel counts bytes
  };
  return table;
}

// torch.<dtype> globals, including torch's aliases.
const std::map<std::string, DType>& dtype_globals() {
  static const std::map<std::string, DType> table = {
      {"torch.float32", DType::Float32},   {"torch.float", DType::Float32},
      {"torch.float64", DType::Float64},   {"torch.double", DType::Float64},
      {"torch.float16", DType::Float16},   {"torch.half", DType::Float16},
      {"torch.bfloat16", DType::BFloat16}, {"torch.int64", DType::Int64},
      {"torch.long", DType::Int64},        {"torch.int32", DType::Int32},
      {"torch.int", DType::Int32},         {"torch.int16", DType::Int16},
      {"torch.short", DType::Int16},       {"torch.int8", DType::Int8},
      {"torch.uint8", DType::UInt8},       {"torch.bool", DType::Bool},
      {"torch.complex64", DType::Complex64}, {"torch.cfloat", DType::Complex64},
      {"torch.complex128", DType::Complex128}, {"torch.cdouble", DType::Complex128},
      {"torch.uint16", DType::UInt16},     {"torch.uint32", DType::UInt32},
      {"torch.uint64", DType::UInt64},     {"torch.float8_e4m3fn", DType::Float8E4M3FN},
      {"torch.float8_e5m2", DType::Float8E5M2},
  };
  return table;
}

// Callables and classes the unpickler knows how to apply (see call()).
const char* const kRebuildTensor = "torch._utils._rebuild_tensor";
const char* const kRebuildTensorV2 = "torch._utils._rebuild_tensor_v2";
const char* const kRebuildTensorV3 = "torch._utils._rebuild_tensor_v3";
const char* const kRebuildParameter = "torch._utils._rebuild_parameter";
const char* const kRebuildParameterWithState = "torch._utils._rebuild_parameter_with_state";
const char* const kRebuildFromType = "torch._tensor._rebuild_from_type_v2";
const char* const kOrderedDict = "collections.OrderedDict";
const char* const kSize = "torch.Size";
const char* const kDevice = "torch.device";
const char* const kSet = "builtins.set";
const char* const kFrozenSet = "builtins.frozenset";
const char* const kEncode = "_codecs.encode";
const char* const kParameter = "torch.nn.parameter.Parameter";
const char* const kTensorClass = "torch.Tensor";  // only as _rebuild_from_type_v2's type

bool is_allowed_global(const std::string& name) {
  static const char* const callables[] = {
      kRebuildTensor, kRebuildTensorV2, kRebuildTensorV3, kRebuildParameter,
      kRebuildParameterWithState, kRebuildFromType, kOrderedDict, kSize, kDevice, kSet,
      kFrozenSet, kEncode, kParameter, kTensorClass};
  for (const char* allowed : callables)
    if (name == allowed) return true;
  return storage_classes().count(name) != 0 || dtype_globals().count(name) != 0;
}

// ---------------------------------------------------------------------------
// Storage records.

// The unit that a big-endian archive byte-swaps: an element, or for complex
// numbers each of its two halves.
size_t swap_unit(DType dtype) {
  return is_complex(dtype) ? element_size(dtype) / 2 : element_size(dtype);
}

// An owned, 16-byte aligned copy of `src`, byte-swapping each `unit`-byte
// group when unit > 1.
std::shared_ptr<Storage> copy_storage(const Storage& src, size_t unit) {
  auto copy = Storage::allocate(src.nbytes());
  if (src.nbytes() != 0) std::memcpy(copy->data(), src.data(), src.nbytes());
  if (unit > 1) {
    for (size_t at = 0; at + unit <= copy->nbytes(); at += unit)
      for (size_t lo = at, hi = at + unit - 1; lo < hi; ++lo, --hi)
        std::swap(copy->data()[lo], copy->data()[hi]);
  }
  return copy;
}

}  // namespace

std::shared_ptr<Storage> copy_record(const ByteSource& source, uint64_t offset, uint64_t nbytes) {
  auto storage = Storage::allocate_heap(static_cast<size_t>(nbytes), false);
  source.copy(offset, nbytes, storage->data());
  return storage;
}

namespace {

// One "<root>/data/<key>" record as the tensors use it.
struct StorageRecord {
  std::shared_ptr<Storage> storage;  // borrowed from the archive, or an owned copy
  size_t swapped_unit = 0;           // big-endian: the unit already swapped (0: none yet)
};

// ---------------------------------------------------------------------------
// Decoding helpers.

// Little-endian two's complement of n bytes (LONG1/LONG4) as int64, or false
// when the value does not fit.
bool decode_long(const uint8_t* p, uint64_t n, int64_t& out) {
  if (n == 0) {
    out = 0;
    return true;
  }
  bool negative = (p[n - 1] & 0x80) != 0;
  if (n > 8) {
    uint8_t fill = negative ? 0xFF : 0x00;
    for (uint64_t k = 8; k < n; ++k)
      if (p[k] != fill) return false;
    if (((p[7] & 0x80) != 0) != negative) return false;
  }
  uint64_t bits = 0;
  uint64_t used = n < 8 ? n : 8;
  for (uint64_t k = 0; k < used; ++k) bits |= static_cast<uint64_t>(p[k]) << (8 * k);
  if (used < 8 && negative) bits |= ~uint64_t(0) << (8 * used);
  out = static_cast<int64_t>(bits);
  return true;
}

// The string of code points below 256 as bytes (Python's str.encode("latin1")),
// or false when a code point does not fit or the UTF-8 is malformed.
bool utf8_to_latin1(const std::string& text, std::string& out) {
  out.clear();
  for (size_t k = 0; k < text.size(); ++k) {
    auto c = static_cast<uint8_t>(text[k]);
    if (c < 0x80) {
      out.push_back(static_cast<char>(c));
    } else if ((c & 0xE0) == 0xC0 && k + 1 < text.size()) {
      auto next = static_cast<uint8_t>(text[++k]);
      if ((next & 0xC0) != 0x80) return false;
      unsigned code = ((c & 0x1Fu) << 6) | (next & 0x3Fu);
      if (code < 0x80 || code > 0xFF) return false;
      out.push_back(static_cast<char>(code));
    } else {
      return false;
    }
  }
  return true;
}

// ---------------------------------------------------------------------------
// The unpickler.

// Pickle opcodes (the names of Python's pickle module).
namespace op {
constexpr uint8_t MARK = '(', STOP = '.', POP = '0', POP_MARK = '1', DUP = '2';
constexpr uint8_t BININT = 'J', BININT1 = 'K', BININT2 = 'M', NONE = 'N';
constexpr uint8_t BINPERSID = 'Q', REDUCE = 'R', BINSTRING = 'T', SHORT_BINSTRING = 'U';
constexpr uint8_t BINUNICODE = 'X', APPEND = 'a', BUILD = 'b', GLOBAL = 'c', DICT = 'd';
constexpr uint8_t EMPTY_DICT = '}', APPENDS = 'e', GET = 'g', BINGET = 'h', LONG_BINGET = 'j';
constexpr uint8_t LIST = 'l', EMPTY_LIST = ']', PUT = 'p', BINPUT = 'q', LONG_BINPUT = 'r';
constexpr uint8_t SETITEM = 's', TUPLE = 't', EMPTY_TUPLE = ')', SETITEMS = 'u', BINFLOAT = 'G';
constexpr uint8_t PROTO = 0x80, NEWOBJ = 0x81, TUPLE1 = 0x85, TUPLE2 = 0x86, TUPLE3 = 0x87;
constexpr uint8_t NEWTRUE = 0x88, NEWFALSE = 0x89, LONG1 = 0x8a, LONG4 = 0x8b;
constexpr uint8_t BINBYTES = 'B', SHORT_BINBYTES = 'C';
constexpr uint8_t SHORT_BINUNICODE = 0x8c, BINUNICODE8 = 0x8d, BINBYTES8 = 0x8e;
constexpr uint8_t EMPTY_SET = 0x8f, ADDITEMS = 0x90, FROZENSET = 0x91;
constexpr uint8_t STACK_GLOBAL = 0x93, MEMOIZE = 0x94, FRAME = 0x95;
}  // namespace op

constexpr int kMaxProtocol = 5;
constexpr int kMaxResultDepth = 512;

class Unpickler {
 public:
  Unpickler(const ZipArchive& archive, std::string root, bool big_endian, StorageAlignment alignment,
            std::vector<UnreadStorage>* unread)
      : archive_(archive),
        unread_(unread),
        root_(std::move(root)),
        pickle_name_(root_ + "/data.pkl"),
        big_endian_(big_endian),
        alignment_(alignment) {
    pickle_ = archive_.read(pickle_name_);
    data_ = pickle_.data;
    size_ = pickle_.size;
  }

  // Python containers can reference each other in cycles (a list appended to
  // itself), and long chains would destroy recursively; emptying every
  // container first makes destruction flat and leak-free.
  ~Unpickler() {
    for (const ObjPtr& obj : containers_) {
      obj->items.clear();
      obj->keys.clear();
    }
  }

  PyValue run() {
    ObjPtr result = execute();
    budget_ = 16 * static_cast<uint64_t>(size_) + 4096;
    return to_py(*result, 0);
  }

 private:
  // --- errors --------------------------------------------------------------

  template <typename... Parts>
  [[noreturn]] void bad(const Parts&... parts) const {
    fail(ErrorCode::BadFile, archive_.label(), ": ", pickle_name_, " at byte ", op_pos_, ": ",
         parts...);
  }

  template <typename... Parts>
  [[noreturn]] void bad_result(const Parts&... parts) const {
    fail(ErrorCode::BadFile, archive_.label(), ": ", pickle_name_, ": ", parts...);
  }

  // --- reading the stream --------------------------------------------------

  const uint8_t* take(uint64_t n) {
    if (n > size_ - pos_)
      bad("the pickle ends early (", n, " bytes needed, ", size_ - pos_, " left)");
    const uint8_t* p = data_ + pos_;
    pos_ += static_cast<size_t>(n);
    return p;
  }

  uint64_t read_le(int n) {
    const uint8_t* p = take(static_cast<uint64_t>(n));
    uint64_t v = 0;
    for (int k = n - 1; k >= 0; --k) v = (v << 8) | p[k];
    return v;
  }

  std::string read_bytes(uint64_t n) {
    const uint8_t* p = take(n);
    return std::string(reinterpret_cast<const char*>(p), static_cast<size_t>(n));
  }

  // A newline-terminated text argument (GLOBAL, PUT, GET).
  std::string read_line() {
    for (size_t end = pos_; end < size_; ++end) {
      if (data_[end] == '\n') {
        std::string line(reinterpret_cast<const char*>(data_ + pos_), end - pos_);
        pos_ = end + 1;
        return line;
      }
    }
    bad("the pickle ends inside a text argument");
  }

  uint64_t read_decimal_line() {
    std::string line = read_line();
    if (line.empty() || line.size() > 18) bad("bad memo index '", line, "'");
    uint64_t v = 0;
    for (char c : line) {
      if (c < '0' || c > '9') bad("bad memo index '", line, "'");
      v = v * 10 + static_cast<uint64_t>(c - '0');
    }
    return v;
  }

  // --- the stack -----------------------------------------------------------

  size_t frame_base() const { return marks_.empty() ? 0 : marks_.back(); }

  void push(ObjPtr obj) { stack_.push_back(std::move(obj)); }

  ObjPtr pop() {
    if (stack_.size() <= frame_base()) bad("stack underflow");
    ObjPtr obj = std::move(stack_.back());
    stack_.pop_back();
    return obj;
  }

  const ObjPtr& top() const {
    if (stack_.size() <= frame_base()) bad("stack underflow");
    return stack_.back();
  }

  std::vector<ObjPtr> pop_mark() {
    if (marks_.empty()) bad("no MARK on the stack");
    size_t base = marks_.back();
    marks_.pop_back();
    std::vector<ObjPtr> items(std::make_move_iterator(stack_.begin() + base),
                              std::make_move_iterator(stack_.end()));
    stack_.resize(base);
    return items;
  }

  ObjPtr make_container(Obj::Kind kind, std::vector<ObjPtr> items = {}) {
    ObjPtr obj = make_scalar(kind);
    obj->items = std::move(items);
    containers_.push_back(obj);
    return obj;
  }

  ObjPtr& memo_get(uint64_t index) {
    auto it = memo_.find(index);
    if (it == memo_.end()) bad("memo entry ", index, " is not defined");
    return it->second;
  }

  void memo_put(uint64_t index) { memo_[index] = top(); }

  // --- dicts ---------------------------------------------------------------

  // What makes two keys the same dict key (Python equality of the hashable
  // scalars a state dict can use: 1, True and 1.0 are one key).
  std::string key_identity(const Obj& key) const {
    switch (key.kind) {
      case Obj::Kind::Str: return "s" + key.s;
      case Obj::Kind::Bytes: return "y" + key.s;
      case Obj::Kind::Int: return "i" + std::to_string(key.i);
      case Obj::Kind::Bool: return key.b ? "i1" : "i0";
      case Obj::Kind::None: return "n";
      case Obj::Kind::Float: {
        if (key.f > -9.2e18 && key.f < 9.2e18 && key.f == std::trunc(key.f))
          return "i" + std::to_string(static_cast<int64_t>(key.f));
        uint64_t bits;
        std::memcpy(&bits, &key.f, sizeof bits);
        return "f" + std::to_string(bits);
      }
      default: bad("a ", kind_name(key.kind), " cannot be a dict key here");
    }
  }

  void dict_set(Obj& dict, ObjPtr key, ObjPtr value) {
    std::string id = key_identity(*key);
    auto found = dict.key_index.find(id);
    if (found != dict.key_index.end()) {
      dict.items[found->second] = std::move(value);
      return;
    }
    dict.key_index.emplace(std::move(id), dict.keys.size());
    dict.keys.push_back(std::move(key));
    dict.items.push_back(std::move(value));
  }

  void dict_set_pairs(Obj& dict, std::vector<ObjPtr>& flat) {
    if (flat.size() % 2 != 0) bad("odd number of items for a dict");
    for (size_t k = 0; k < flat.size(); k += 2) dict_set(dict, flat[k], flat[k + 1]);
  }

  Obj& expect(const ObjPtr& obj, Obj::Kind kind, const char* what) const {
    if (obj->kind != kind)
      bad(what, " must be a ", kind_name(kind), ", not a ", kind_name(obj->kind));
    return *obj;
  }

  // --- globals and calls ---------------------------------------------------

  ObjPtr make_global(const std::string& module, const std::string& name) {
    std::string full = module + "." + name;
    if (!is_allowed_global(full))
      bad("pickle global '", full,
          "' is not allowed (only tensors, storages, dtypes and plain containers can be "
          "loaded)");
    ObjPtr obj = make_scalar(Obj::Kind::Global);
    obj->s = std::move(full);
    return obj;
  }

  DType dtype_of(const Obj& obj) const {
    if (obj.kind == Obj::Kind::Global) {
      auto it = dtype_globals().find(obj.s);
      if (it != dtype_globals().end()) return it->second;
    }
    if (obj.kind == Obj::Kind::Global) bad("expected a torch dtype, got the global '", obj.s, "'");
    bad("expected a torch dtype, got a ", kind_name(obj.kind));
  }

  void expect_arity(const std::string& name, const std::vector<ObjPtr>& args, size_t lo,
                    size_t hi) const {
    if (args.size() >= lo && args.size() <= hi) return;
    if (lo == hi) bad(name, " takes ", lo, " arguments, got ", args.size());
    bad(name, " takes ", lo, " to ", hi, " arguments, got ", args.size());
  }

  // Applies an allowed global to its arguments (REDUCE and NEWOBJ).
  ObjPtr call(const ObjPtr& callable, const std::vector<ObjPtr>& args) {
    if (callable->kind != Obj::Kind::Global)
      bad("cannot call a ", kind_name(callable->kind));
    const std::string& name = callable->s;
    if (name == kRebuildTensor) {
      expect_arity(name, args, 4, 4);
      return rebuild_tensor(args, nullptr);
    }
    if (name == kRebuildTensorV2) {
      expect_arity(name, args, 6, 7);
      return rebuild_tensor(args, nullptr);
    }
    if (name == kRebuildTensorV3) {
      expect_arity(name, args, 7, 8);
      return rebuild_tensor(args, args[6].get());
    }
    // Parameters are loaded as their plain data tensor.
    if (name == kRebuildParameter) return parameter_data(name, args, 3, 3);
    if (name == kRebuildParameterWithState) return parameter_data(name, args, 4, 4);
    if (name == kParameter) return parameter_data(name, args, 1, 2);
    if (name == kRebuildFromType) return rebuild_from_type(args);
    if (name == kOrderedDict) return make_ordered_dict(args);
    if (name == kSize) {
      expect_arity(name, args, 1, 1);
      return make_container(Obj::Kind::Tuple, int_sequence(args[0], "torch.Size's argument"));
    }
    if (name == kDevice) return make_device(args);
    if (name == kSet || name == kFrozenSet) {
      expect_arity(name, args, 0, 1);
      if (args.empty()) return make_container(Obj::Kind::Set);
      const Obj& from = *args[0];
      if (from.kind != Obj::Kind::List && from.kind != Obj::Kind::Tuple &&
          from.kind != Obj::Kind::Set)
        bad(name, " of a ", kind_name(from.kind), " is not supported");
      return make_container(Obj::Kind::Set, from.items);
    }
    if (name == kEncode) return encode_bytes(args);
    bad("the global '", name, "' cannot be called");
  }

  ObjPtr parameter_data(const std::string& name, const std::vector<ObjPtr>& args, size_t lo,
                        size_t hi) const {
    expect_arity(name, args, lo, hi);
    expect(args[0], Obj::Kind::Tensor, "the data of a parameter");
    return args[0];
  }

  std::vector<ObjPtr> int_sequence(const ObjPtr& obj, const char* what) const {
    if (obj->kind != Obj::Kind::Tuple && obj->kind != Obj::Kind::List)
      bad(what, " must be a tuple of ints, not a ", kind_name(obj->kind));
    for (const ObjPtr& item : obj->items) expect(item, Obj::Kind::Int, what);
    return obj->items;
  }

  Shape to_shape(const ObjPtr& obj, const char* what) const {
    Shape shape;
    for (const ObjPtr& item : int_sequence(obj, what)) shape.push_back(item->i);
    return shape;
  }

  // _rebuild_from_type_v2(func, new_type, args, state): a tensor of a Python
  // subclass (or with Python attributes); loaded as func(*args).
  ObjPtr rebuild_from_type(const std::vector<ObjPtr>& args) {
    expect_arity(kRebuildFromType, args, 4, 4);
    expect(args[0], Obj::Kind::Global, "the function of _rebuild_from_type_v2");
    if (args[0]->s == kRebuildFromType) bad("_rebuild_from_type_v2 cannot rebuild itself");
    const Obj& inner = expect(args[2], Obj::Kind::Tuple, "the arguments of _rebuild_from_type_v2");
    return call(args[0], inner.items);
  }

  ObjPtr make_ordered_dict(const std::vector<ObjPtr>& args) {
    expect_arity(kOrderedDict, args, 0, 1);
    ObjPtr dict = make_container(Obj::Kind::Dict);
    if (args.empty()) return dict;
    const Obj& pairs = *args[0];
    if (pairs.kind != Obj::Kind::List && pairs.kind != Obj::Kind::Tuple)
      bad("OrderedDict of a ", kind_name(pairs.kind), " is not supported");
    for (const ObjPtr& pair : pairs.items) {
      if (pair->kind != Obj::Kind::Tuple || pair->items.size() != 2)
        bad("OrderedDict items must be (key, value) tuples");
      dict_set(*dict, pair->items[0], pair->items[1]);
    }
    return dict;
  }

  ObjPtr make_device(const std::vector<ObjPtr>& args) {
    expect_arity(kDevice, args, 1, 2);
    ObjPtr device = make_scalar(Obj::Kind::Str);
    device->s = expect(args[0], Obj::Kind::Str, "the device type").s;
    if (args.size() == 2 && args[1]->kind != Obj::Kind::None)
      device->s += ":" + std::to_string(expect(args[1], Obj::Kind::Int, "the device index").i);
    return device;
  }

  // _codecs.encode(text, encoding): how protocol 2 pickles a bytes object.
  ObjPtr encode_bytes(const std::vector<ObjPtr>& args) {
    expect_arity(kEncode, args, 2, 2);
    const std::string& text = expect(args[0], Obj::Kind::Str, "the text of _codecs.encode").s;
    const std::string& encoding = expect(args[1], Obj::Kind::Str, "the encoding").s;
    ObjPtr bytes = make_scalar(Obj::Kind::Bytes);
    if (encoding == "latin1" || encoding == "latin-1" || encoding == "iso-8859-1") {
      if (!utf8_to_latin1(text, bytes->s)) bad("_codecs.encode: the text is not latin-1");
    } else if (encoding == "utf-8" || encoding == "utf8") {
      bytes->s = text;
    } else {
      bad("_codecs.encode with encoding '", encoding, "' is not supported");
    }
    return bytes;
  }

  // --- storages and tensors ------------------------------------------------

  // BINPERSID: ("storage", storage class, key, location, numel).
  ObjPtr persistent_load(const ObjPtr& pid) {
    if (pid->kind != Obj::Kind::Tuple || pid->items.size() != 5 ||
        pid->items[0]->kind != Obj::Kind::Str || pid->items[0]->s != "storage")
      bad("unsupported persistent id (expected a ('storage', type, key, location, numel) tuple)");
    const Obj& type = expect(pid->items[1], Obj::Kind::Global, "the storage type");
    auto cls = storage_classes().find(type.s);
    if (cls == storage_classes().end()) bad("'", type.s, "' is not a storage class");
    const std::string& key = expect(pid->items[2], Obj::Kind::Str, "the storage key").s;
    expect(pid->items[3], Obj::Kind::Str, "the storage location");
    int64_t numel = expect(pid->items[4], Obj::Kind::Int, "the storage size").i;

    load_storage(key, cls->second, numel);
    ObjPtr storage = make_scalar(Obj::Kind::Storage);
    storage->s = key;
    storage->dtype = cls->second;
    return storage;
  }

  // Registers record "<root>/data/<key>", borrowed from the archive, after
  // checking that it holds exactly numel elements of dtype.
  void load_storage(const std::string& key, DType dtype, int64_t numel) {
    uint64_t esize = element_size(dtype);
    if (numel < 0 || static_cast<uint64_t>(numel) > UINT64_MAX / esize)
      bad("storage '", key, "' has an invalid size of ", numel, " elements");
    uint64_t nbytes = static_cast<uint64_t>(numel) * esize;
    auto cached = storages_.find(key);
    if (cached != storages_.end()) {
      if (cached->second.storage->nbytes() != nbytes)
        bad("storage '", key, "' is used with sizes of ", cached->second.storage->nbytes(),
            " and ", nbytes, " bytes");
      return;
    }
    std::string record = root_ + "/data/" + key;
    if (!archive_.contains(record)) bad("storage record '", record, "' is missing");
    const ZipArchive::Entry& entry = archive_.stored_entry(record);
    if (entry.size != nbytes)
      bad("storage record '", record, "' holds ", entry.size, " bytes but the pickle expects ",
          numel, " elements of ", dtype_name(dtype), " (", nbytes, " bytes)");
    const std::shared_ptr<const ByteSource>& source = archive_.source();
    if (!source->borrows()) {
      // A source that copies (a JS buffer): each record is copied once,
      // 16-byte aligned, or left unread for the caller to settle.
      if (unread_ != nullptr) {
        auto placeholder = Storage::borrow(nullptr, nbytes, nullptr);
        unread_->push_back({placeholder, source, entry.data_offset, nbytes});
        storages_[key].storage = std::move(placeholder);
      } else {
        storages_[key].storage = copy_record(*source, entry.data_offset, nbytes);
      }
      return;
    }
    SharedBytes span = archive_.read(record);
    // The storage may be written through by runtime buffer mutations; the
    // source's bytes are heap memory that is only const by convention.
    auto* data = const_cast<uint8_t*>(span.data);
    storages_[key].storage = Storage::borrow(data, span.size, std::move(span.owner));
  }

  // The storage of `key` ready for elements of dtype: byte-swapped for a
  // big-endian archive and copied when the borrowed bytes are misaligned.
  std::shared_ptr<Storage> storage_for(const std::string& key, DType dtype) {
    StorageRecord& record = storages_.at(key);
    size_t unit = swap_unit(dtype);
    if (big_endian_) {
      if (record.swapped_unit == 0) {
        record.storage = copy_storage(*record.storage, unit);
        record.swapped_unit = unit;
      } else if (record.swapped_unit != unit) {
        bad("big-endian storage '", key, "' is viewed with elements of different sizes");
      }
    }
    auto address = reinterpret_cast<uintptr_t>(record.storage->data());
    if (address % element_size(dtype) != 0 && alignment_ == StorageAlignment::CopyMisaligned)
      record.storage = copy_storage(*record.storage, 0);
    return record.storage;
  }

  // _rebuild_tensor(_v2/_v3)(storage, storage_offset, size, stride, ...):
  // the dtype is the storage class's unless v3 passes one explicitly.
  ObjPtr rebuild_tensor(const std::vector<ObjPtr>& args, const Obj* dtype_arg) {
    const Obj& storage = expect(args[0], Obj::Kind::Storage, "the tensor's storage");
    int64_t offset = expect(args[1], Obj::Kind::Int, "the storage offset").i;
    Shape sizes = to_shape(args[2], "the tensor's size");
    Shape strides = to_shape(args[3], "the tensor's stride");
    DType dtype = dtype_arg ? dtype_of(*dtype_arg) : storage.dtype;
    uint64_t available = storages_.at(storage.s).storage->nbytes() / element_size(dtype);
    check_extent(storage.s, sizes, strides, offset, available);

    ObjPtr tensor = make_scalar(Obj::Kind::Tensor);
    tensor->tensor = Tensor(storage_for(storage.s, dtype), dtype, sizes, strides, offset);
    return tensor;
  }

  // Every element the strided view can reach must lie inside the storage.
  void check_extent(const std::string& key, const Shape& sizes, const Shape& strides,
                    int64_t offset, uint64_t available) const {
    std::string problem = view_bounds_problem(sizes, strides, offset, available);
    if (!problem.empty()) bad("storage '", key, "': ", problem);
  }

  // --- the opcode loop -----------------------------------------------------

  ObjPtr execute() {
    for (;;) {
      op_pos_ = pos_;
      uint8_t code = *take(1);
      if (code == op::STOP) return pop();
      step(code);
    }
  }

  void push_int(int64_t v) {
    ObjPtr obj = make_scalar(Obj::Kind::Int);
    obj->i = v;
    push(std::move(obj));
  }

  void push_text(Obj::Kind kind, std::string text) {
    ObjPtr obj = make_scalar(kind);
    obj->s = std::move(text);
    push(std::move(obj));
  }

  void push_long(uint64_t n) {
    const uint8_t* p = take(n);
    int64_t v = 0;
    if (!decode_long(p, n, v)) bad("integer of ", n, " bytes does not fit in int64");
    push_int(v);
  }

  void push_tuple(size_t n) {
    if (stack_.size() < frame_base() + n) bad("stack underflow");
    std::vector<ObjPtr> items(std::make_move_iterator(stack_.end() - n),
                              std::make_move_iterator(stack_.end()));
    stack_.resize(stack_.size() - n);
    push(make_container(Obj::Kind::Tuple, std::move(items)));
  }

  void step(uint8_t code) {
    switch (code) {
      case op::PROTO: {
        uint8_t version = *take(1);
        if (version > kMaxProtocol) bad("unsupported pickle protocol ", int(version));
        return;
      }
      case op::FRAME: take(8); return;  // frames only group opcodes
      case op::MARK: marks_.push_back(stack_.size()); return;
      case op::POP:
        if (stack_.size() > frame_base())
          stack_.pop_back();
        else
          pop_mark();
        return;
      case op::POP_MARK: pop_mark(); return;
      case op::DUP: push(top()); return;

      case op::NONE: push(make_scalar(Obj::Kind::None)); return;
      case op::NEWTRUE:
      case op::NEWFALSE: {
        ObjPtr obj = make_scalar(Obj::Kind::Bool);
        obj->b = code == op::NEWTRUE;
        push(std::move(obj));
        return;
      }
      case op::BININT: push_int(static_cast<int32_t>(read_le(4))); return;
      case op::BININT1: push_int(static_cast<int64_t>(read_le(1))); return;
      case op::BININT2: push_int(static_cast<int64_t>(read_le(2))); return;
      case op::LONG1: push_long(read_le(1)); return;
      case op::LONG4: push_long(read_le(4)); return;
      case op::BINFLOAT: {
        const uint8_t* p = take(8);
        uint64_t bits = 0;
        for (int k = 0; k < 8; ++k) bits = (bits << 8) | p[k];  // big-endian
        ObjPtr obj = make_scalar(Obj::Kind::Float);
        std::memcpy(&obj->f, &bits, sizeof bits);
        push(std::move(obj));
        return;
      }

      case op::SHORT_BINUNICODE: push_text(Obj::Kind::Str, read_bytes(read_le(1))); return;
      case op::BINUNICODE: push_text(Obj::Kind::Str, read_bytes(read_le(4))); return;
      case op::BINUNICODE8: push_text(Obj::Kind::Str, read_bytes(read_le(8))); return;
      case op::SHORT_BINSTRING: push_text(Obj::Kind::Str, read_bytes(read_le(1))); return;
      case op::BINSTRING: {
        int32_t n = static_cast<int32_t>(read_le(4));
        if (n < 0) bad("negative string length");
        push_text(Obj::Kind::Str, read_bytes(static_cast<uint64_t>(n)));
        return;
      }
      case op::SHORT_BINBYTES: push_text(Obj::Kind::Bytes, read_bytes(read_le(1))); return;
      case op::BINBYTES: push_text(Obj::Kind::Bytes, read_bytes(read_le(4))); return;
      case op::BINBYTES8: push_text(Obj::Kind::Bytes, read_bytes(read_le(8))); return;

      case op::EMPTY_TUPLE: push(make_container(Obj::Kind::Tuple)); return;
      case op::TUPLE1: push_tuple(1); return;
      case op::TUPLE2: push_tuple(2); return;
      case op::TUPLE3: push_tuple(3); return;
      case op::TUPLE: push(make_container(Obj::Kind::Tuple, pop_mark())); return;
      case op::EMPTY_LIST: push(make_container(Obj::Kind::List)); return;
      case op::LIST: push(make_container(Obj::Kind::List, pop_mark())); return;
      case op::APPEND: {
        ObjPtr value = pop();
        expect(top(), Obj::Kind::List, "the target of APPEND").items.push_back(std::move(value));
        return;
      }
      case op::APPENDS: {
        std::vector<ObjPtr> values = pop_mark();
        Obj& list = expect(top(), Obj::Kind::List, "the target of APPENDS");
        for (ObjPtr& v : values) list.items.push_back(std::move(v));
        return;
      }
      case op::EMPTY_DICT: push(make_container(Obj::Kind::Dict)); return;
      case op::DICT: {
        std::vector<ObjPtr> flat = pop_mark();
        ObjPtr dict = make_container(Obj::Kind::Dict);
        dict_set_pairs(*dict, flat);
        push(std::move(dict));
        return;
      }
      case op::SETITEM: {
        ObjPtr value = pop();
        ObjPtr key = pop();
        dict_set(expect(top(), Obj::Kind::Dict, "the target of SETITEM"), std::move(key),
                 std::move(value));
        return;
      }
      case op::SETITEMS: {
        std::vector<ObjPtr> flat = pop_mark();
        dict_set_pairs(expect(top(), Obj::Kind::Dict, "the target of SETITEMS"), flat);
        return;
      }
      case op::EMPTY_SET: push(make_container(Obj::Kind::Set)); return;
      case op::ADDITEMS: {
        std::vector<ObjPtr> values = pop_mark();
        Obj& set = expect(top(), Obj::Kind::Set, "the target of ADDITEMS");
        for (ObjPtr& v : values) set.items.push_back(std::move(v));
        return;
      }
      case op::FROZENSET: push(make_container(Obj::Kind::Set, pop_mark())); return;

      case op::GLOBAL: {
        std::string module = read_line();
        std::string name = read_line();
        push(make_global(module, name));
        return;
      }
      case op::STACK_GLOBAL: {
        ObjPtr name = pop();
        ObjPtr module = pop();
        push(make_global(expect(module, Obj::Kind::Str, "the module of STACK_GLOBAL").s,
                         expect(name, Obj::Kind::Str, "the name of STACK_GLOBAL").s));
        return;
      }
      case op::REDUCE:
      case op::NEWOBJ: {
        ObjPtr args = pop();
        ObjPtr callable = pop();
        push(call(callable, expect(args, Obj::Kind::Tuple, "the arguments of a call").items));
        return;
      }
      case op::BUILD: {
        ObjPtr state = pop();
        Obj::Kind target = top()->kind;
        // Python attributes of dicts (a state dict's _metadata) and tensors
        // are not part of their values; dropping them loses nothing we use.
        if (target != Obj::Kind::Dict && target != Obj::Kind::Tensor &&
            state->kind != Obj::Kind::None)
          bad("cannot set the state of a ", kind_name(target));
        return;
      }
      case op::BINPERSID: push(persistent_load(pop())); return;

      case op::BINPUT: memo_put(read_le(1)); return;
      case op::LONG_BINPUT: memo_put(read_le(4)); return;
      case op::PUT: memo_put(read_decimal_line()); return;
      case op::MEMOIZE: memo_put(memo_.size()); return;
      case op::BINGET: push(memo_get(read_le(1))); return;
      case op::LONG_BINGET: push(memo_get(read_le(4))); return;
      case op::GET: push(memo_get(read_decimal_line())); return;

      default: bad("unsupported pickle opcode 0x", "0123456789abcdef"[code >> 4],
                   "0123456789abcdef"[code & 15]);
    }
  }

  // --- the result ----------------------------------------------------------

  std::vector<PyValue> to_py_items(const std::vector<ObjPtr>& items, int depth) {
    std::vector<PyValue> out;
    out.reserve(items.size());
    for (const ObjPtr& item : items) out.push_back(to_py(*item, depth + 1));
    return out;
  }

  PyValue to_py(const Obj& obj, int depth) {
    // Shared containers are expanded into a tree; the budget stops a small
    // pickle of nested shared lists from expanding exponentially.
    if (budget_ == 0) bad_result("the result expands to too many values");
    --budget_;
    if (depth > kMaxResultDepth)
      bad_result("containers nest deeper than ", kMaxResultDepth, " levels");
    switch (obj.kind) {
      case Obj::Kind::None: return PyValue::none();
      case Obj::Kind::Bool: return PyValue::from_bool(obj.b);
      case Obj::Kind::Int: return PyValue::from_int(obj.i);
      case Obj::Kind::Float: return PyValue::from_float(obj.f);
      case Obj::Kind::Str:
      case Obj::Kind::Bytes: return PyValue::from_str(obj.s);
      case Obj::Kind::Tensor: return PyValue::from_tensor(obj.tensor);
      case Obj::Kind::Tuple: return PyValue::tuple(to_py_items(obj.items, depth));
      case Obj::Kind::List:
      case Obj::Kind::Set: return PyValue::list(to_py_items(obj.items, depth));
      case Obj::Kind::Dict: {
        PyValue dict = PyValue::dict();
        dict.keys = to_py_items(obj.keys, depth);
        dict.items = to_py_items(obj.items, depth);
        return dict;
      }
      case Obj::Kind::Global: {
        auto it = dtype_globals().find(obj.s);
        if (it == dtype_globals().end())
          bad_result("the result holds the global '", obj.s, "', which is not a value");
        return PyValue::from_str(dtype_name(it->second));
      }
      case Obj::Kind::Storage:
        bad_result("the result holds a bare storage '", obj.s, "' (only tensors are supported)");
    }
    bad_result("unknown object");
  }

  const ZipArchive& archive_;
  std::vector<UnreadStorage>* unread_;  // null: read every record
  std::string root_;
  std::string pickle_name_;
  bool big_endian_;
  StorageAlignment alignment_;
  SharedBytes pickle_;  // data.pkl, alive while it is parsed
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  size_t pos_ = 0;
  size_t op_pos_ = 0;
  uint64_t budget_ = 0;

  std::vector<ObjPtr> stack_;
  std::vector<size_t> marks_;  // stack sizes at each MARK
  std::unordered_map<uint64_t, ObjPtr> memo_;
  std::vector<ObjPtr> containers_;  // every container made, for ~Unpickler
  std::map<std::string, StorageRecord> storages_;
};

// ---------------------------------------------------------------------------

// The single top-level folder every record sits in ("archive" for buffers).
std::string find_root(const ZipArchive& archive) {
  const auto& entries = archive.entries();
  if (entries.empty())
    fail(ErrorCode::BadFile, archive.label(), ": empty zip, not a torch.save archive");
  const std::string& first = entries.front().name;
  size_t slash = first.find('/');
  if (slash == std::string::npos || slash == 0)
    fail(ErrorCode::BadFile, archive.label(), ": not a torch.save archive: entry '", first,
         "' is not inside a top-level folder");
  std::string root = first.substr(0, slash);
  for (const auto& entry : entries)
    if (entry.name.compare(0, slash + 1, root + "/") != 0)
      fail(ErrorCode::BadFile, archive.label(),
           ": not a torch.save archive: entries are not all inside one folder ('", first,
           "' and '", entry.name, "')");
  return root;
}

// True for "big", false for "little" or no byteorder record.
bool read_big_endian(const ZipArchive& archive, const std::string& root) {
  std::string name = root + "/byteorder";
  if (!archive.contains(name)) return false;
  std::string order = archive.read_string(name);
  while (!order.empty() && (order.back() == '\n' || order.back() == '\r')) order.pop_back();
  if (order == "little") return false;
  if (order == "big") return true;
  fail(ErrorCode::BadFile, archive.label(), ": '", name, "' holds '", order,
       "' instead of 'little' or 'big'");
}

}  // namespace

PyValue torch_load(const ZipArchive& archive, StorageAlignment alignment, std::vector<UnreadStorage>* unread) {
  std::string root = find_root(archive);
  if (!archive.contains(root + "/data.pkl"))
    fail(ErrorCode::BadFile, archive.label(), ": not a torch.save archive: no '", root,
         "/data.pkl'");
  bool big_endian = read_big_endian(archive, root);
  // Big-endian records are swapped as they are read, so all are read.
  Unpickler unpickler(archive, root, big_endian, alignment, big_endian ? nullptr : unread);
  return unpickler.run();
}

}  // namespace pt2web
