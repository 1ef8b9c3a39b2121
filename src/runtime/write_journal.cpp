#include "runtime/write_journal.h"

#include <algorithm>

#include "ops/op_compose.h"
#include "tensor/allocator.h"

namespace pt2web {

void WriteJournal::watch(const std::map<std::string, Tensor>& buffers, const std::set<std::string>& names) {
  storages_.clear();
  entries_.clear();
  for (const std::string& name : names) {
    auto it = buffers.find(name);
    if (it != buffers.end() && it->second.storage()) storages_.push_back(it->second.storage().get());
  }
}

bool WriteJournal::watched(const Tensor& t) const {
  return t.defined() && std::find(storages_.begin(), storages_.end(), t.storage().get()) != storages_.end();
}

void WriteJournal::before_in_place_write(const PreparedNode& node, const OpCall& call) {
  if (storages_.empty()) return;
  for (int index : node.written_args) {
    const Value& written = call.arg(static_cast<size_t>(index));
    if (written.kind == Value::Kind::Tensor) {
      if (watched(written.tensor)) save(written.tensor, call, node);
    } else {
      for (const Tensor& t : written.tensors)
        if (watched(t)) save(t, call, node);
    }
  }
}

void WriteJournal::save(const Tensor& target, const OpCall& call, const PreparedNode& node) {
  ScopedStorageAllocator heap(nullptr);  // saved values outlive the run's planned arena
  const std::string& name = node.op->schema.name;
  Entry entry;
  entry.target = target;
  const bool writes_self = node.written_args.size() == 1 && node.written_args[0] == 0;
  if (name == "aten::index_copy_" && writes_self) {
    entry.kind = Entry::Kind::Rows;
    entry.dim = call.int_arg(1);
    entry.index = call.tensor(2);
    entry.saved = run_op1("aten::index_select.default", {arg(target), arg(entry.dim), arg(entry.index)});
  } else if (name == "aten::index_put_" && writes_self) {
    entry.kind = Entry::Kind::Elements;
    entry.indices = call.tensor_list(1);
    entry.saved = run_op1("aten::index.Tensor", {arg(target), Value::from_optional_tensors(entry.indices)});
  } else {
    entry.saved = target.clone();
  }
  entries_.push_back(std::move(entry));
}

void WriteJournal::roll_back() noexcept {
  ScopedStorageAllocator heap(nullptr);
  for (auto it = entries_.rbegin(); it != entries_.rend(); ++it) {
    try {
      switch (it->kind) {
        case Entry::Kind::View: it->target.copy_from(it->saved); break;
        case Entry::Kind::Rows:
          run_op("aten::index_copy_.default", {arg(it->target), arg(it->dim), arg(it->index), arg(it->saved)});
          break;
        case Entry::Kind::Elements:
          run_op("aten::index_put_.default",
                 {arg(it->target), Value::from_optional_tensors(it->indices), arg(it->saved), Value::from_bool(false)});
          break;
      }
    } catch (...) {
      // The region was read from this very tensor with these very indices
      // before the write, so writing it back fits; nothing may throw here.
    }
  }
  entries_.clear();
}

size_t WriteJournal::saved_elements() const {
  size_t n = 0;
  for (const Entry& e : entries_) n += static_cast<size_t>(e.saved.numel());
  return n;
}

}  // namespace pt2web
