// Hostile pickles inside the mlp fixture's state dict: globals outside the
// allowlist (os.system, builtins.eval), nesting without end, a pickle that
// never stops, and tensors whose size, stride or offset reach past their
// storage (or overflow). Each is refused as BAD_FILE naming the nested
// archive, and the tensor control case shows the pickles are well formed.
#include <cstring>

#include "runtime/bad_input_util.h"

using namespace pt2web;
using namespace pt2web::bad_input;

namespace {

// Writes pickle opcodes (protocol 2) by name.
class Pickle {
 public:
  Pickle() { bytes_ += "\x80\x02"; }
  Pickle& op(char code) { bytes_ += code; return *this; }
  Pickle& global(const std::string& module, const std::string& name) {
    bytes_ += 'c' + module + '\n' + name + '\n';
    return *this;
  }
  Pickle& str(const std::string& s) {
    bytes_ += 'X';
    put32(s.size());
    bytes_ += s;
    return *this;
  }
  Pickle& integer(int64_t v) {  // LONG1 with 8 bytes: any int64
    bytes_ += "\x8a\x08";
    for (int k = 0; k < 8; ++k) bytes_ += static_cast<char>(static_cast<uint64_t>(v) >> (8 * k));
    return *this;
  }
  Pickle& int_tuple(const std::vector<int64_t>& values) {
    op('(');
    for (int64_t v : values) integer(v);
    return op('t');
  }
  Pickle& empty_ordered_dict() { return global("collections", "OrderedDict").op(')').op('R'); }
  // _rebuild_tensor_v2(storage '0' of `numel` floats, offset, size, stride, False, OrderedDict())
  Pickle& tensor(int64_t numel, int64_t offset, const std::vector<int64_t>& size,
                 const std::vector<int64_t>& stride) {
    global("torch._utils", "_rebuild_tensor_v2").op('(');
    op('(').str("storage").global("torch", "FloatStorage").str("0").str("cpu").integer(numel).op('t');
    op('Q');
    integer(offset).int_tuple(size).int_tuple(stride).op('\x89').empty_ordered_dict();
    return op('t').op('R');
  }
  std::string stop() { return bytes_ + '.'; }
  std::string unterminated() const { return bytes_; }

 private:
  void put32(size_t v) {
    for (int k = 0; k < 4; ++k) bytes_ += static_cast<char>(v >> (8 * k));
  }
  std::string bytes_;
};

// The mlp archive whose state dict is {"w": <tensor>} over a storage of
// `storage_floats` floats.
Refusal state_dict_tensor(int64_t numel, int64_t offset, const std::vector<int64_t>& size,
                          const std::vector<int64_t>& stride, size_t storage_floats) {
  std::string pickle = Pickle().empty_ordered_dict().str("w").tensor(numel, offset, size, stride)
                           .op('s').stop();
  return load_refusal(with_pickle("mlp", "serialized_state_dict.pt", pickle,
                                  {{"0", std::string(storage_floats * 4, '\0')}}));
}

Refusal state_dict_pickle(const std::string& pickle) {
  return load_refusal(with_pickle("mlp", "serialized_state_dict.pt", pickle));
}

}  // namespace

TEST_CASE("a well-formed hostile-test pickle loads (control)", "[bad_input]") {
  // The tensor is accepted; the load then fails only because mlp's real
  // parameters are missing from this state dict.
  CHECK_REFUSED(state_dict_tensor(12, 0, {3, 4}, {4, 1}, 12), ErrorCode::BadProgram,
                "parameter 'fc1.weight' is missing");
}

TEST_CASE("pickles calling os.system or builtins.eval are refused", "[bad_input]") {
  std::string os_system = Pickle().global("os", "system").str("echo owned").op('\x85').op('R').stop();
  CHECK_REFUSED(state_dict_pickle(os_system), ErrorCode::BadFile, "pickle global 'os.system' is not allowed");
  std::string eval = Pickle().str("builtins").str("eval").op('\x93').str("1+1").op('\x85').op('R').stop();
  CHECK_REFUSED(state_dict_pickle(eval), ErrorCode::BadFile, "pickle global 'builtins.eval' is not allowed");
  std::string getattr = Pickle().global("builtins", "getattr").stop();
  CHECK_REFUSED(state_dict_pickle(getattr), ErrorCode::BadFile, "'builtins.getattr' is not allowed");
}

TEST_CASE("pickles nesting without end are refused", "[bad_input]") {
  // 100,000 lists, each appended into the one below it.
  Pickle lists;
  for (int k = 0; k < 100000; ++k) lists.op(']');
  for (int k = 1; k < 100000; ++k) lists.op('a');
  CHECK_REFUSED(state_dict_pickle(lists.stop()), ErrorCode::BadFile, "serialized_state_dict.pt");
  // A list that contains itself.
  std::string cycle = Pickle().op(']').op('q').op('\0').op('h').op('\0').op('a').stop();
  CHECK_REFUSED(state_dict_pickle(cycle), ErrorCode::BadFile, "serialized_state_dict.pt");
  // A million marks that are never closed.
  Pickle marks;
  for (int k = 0; k < 1000000; ++k) marks.op('(');
  CHECK_REFUSED(state_dict_pickle(marks.stop()), ErrorCode::BadFile, "serialized_state_dict.pt");
}

TEST_CASE("a pickle without STOP is refused", "[bad_input]") {
  CHECK_REFUSED(state_dict_pickle(Pickle().empty_ordered_dict().unterminated()), ErrorCode::BadFile,
                "serialized_state_dict.pt");
}

TEST_CASE("tensors reaching past their storage are refused", "[bad_input]") {
  CHECK_REFUSED(state_dict_tensor(12, 0, {4, 4}, {4, 1}, 12), ErrorCode::BadFile,
                "storage '0': tensor of size [4, 4], stride [4, 1] and offset 0 needs 16 elements but the storage has 12");
  CHECK_REFUSED(state_dict_tensor(12, 1, {3, 4}, {4, 1}, 12), ErrorCode::BadFile,
                "needs 13 elements");
  CHECK_REFUSED(state_dict_tensor(12, 0, {3, 4}, {5, 1}, 12), ErrorCode::BadFile,
                "needs 14 elements");
}

TEST_CASE("negative sizes, strides and offsets in a pickle are refused", "[bad_input]") {
  CHECK_REFUSED(state_dict_tensor(12, 0, {-3, 4}, {4, 1}, 12), ErrorCode::BadFile, "negative");
  CHECK_REFUSED(state_dict_tensor(12, 11, {3, 4}, {-4, 1}, 12), ErrorCode::BadFile, "negative");
  CHECK_REFUSED(state_dict_tensor(12, -1, {3, 4}, {4, 1}, 12), ErrorCode::BadFile,
                "negative storage offset");
  CHECK_REFUSED(state_dict_tensor(-12, 0, {3, 4}, {4, 1}, 12), ErrorCode::BadFile, "invalid size");
}

TEST_CASE("overflowing tensor geometry in a pickle is refused", "[bad_input]") {
  const int64_t huge = int64_t(1) << 62;
  CHECK_REFUSED(state_dict_tensor(12, 0, {huge, 4}, {4, 1}, 12), ErrorCode::BadFile, "overflows");
  // Zero strides reach one element, but 2^62 * 2^62 elements overflow int64.
  CHECK_REFUSED(state_dict_tensor(12, 0, {huge, huge}, {0, 0}, 12), ErrorCode::BadFile, "overflows");
}

TEST_CASE("a storage claiming gigabytes is refused without allocating them", "[bad_input]") {
  // 2^40 floats claimed, 48 bytes present: the record's size is checked
  // against the claim before any storage is made.
  CHECK_REFUSED(state_dict_tensor(int64_t(1) << 40, 0, {3, 4}, {4, 1}, 12), ErrorCode::BadFile,
                "holds 48 bytes but the pickle expects 1099511627776 elements");
}
