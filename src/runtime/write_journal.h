// Keeps a failed run from changing a program's state, saving only what the
// run overwrites. Programs in the TRAINING dialect (torch.export's default,
// before run_decompositions) write buffers in place while the graph runs
// (aten.add_ on a buffer, index_copy_ into a KV cache), so an operator
// failing later in the same run would leave them half updated.
//
// The executor tells the journal before every node that writes one of its
// arguments in place (InPlaceWriteWatcher, runtime/executor.h). When the
// written tensor shares storage with a watched buffer, the journal saves
// what the write can change: the rows index_copy_ replaces, the elements
// index_put_ replaces, else the whole written view. Rolling back writes the
// saved values back in reverse order, so a region written twice ends with
// its value from before the run. A decode step that appends one row to a
// KV cache saves that row, not the cache.
//
// Saved values live on the heap, outside any planned arena of the run.
// Ownership: the journal shares the storages it saved from (Tensor views);
// `watch` replaces the watched set. Errors: saving rethrows what the
// gathering operator throws (the write's own arguments are bad, so the
// write would fail too); rolling back never throws.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "runtime/node_hooks.h"
#include "tensor/tensor.h"

namespace pt2web {

class WriteJournal : public InPlaceWriteWatcher {
 public:
  // From now on, writes into the storage of these buffers are saved.
  void watch(const std::map<std::string, Tensor>& buffers, const std::set<std::string>& names);

  void before_in_place_write(const PreparedNode& node, const OpCall& call) override;

  // Puts every saved region back (newest first) and forgets them.
  void roll_back() noexcept;
  // Forgets the saved regions: the run's writes stand.
  void clear() { entries_.clear(); }

  size_t saved_elements() const;  // for tests: how much the journal holds

 private:
  struct Entry {
    enum class Kind { View, Rows, Elements };
    Kind kind = Kind::View;
    Tensor target;   // the written tensor (a view of a buffer)
    Tensor saved;    // its values before the write, in the region below
    int64_t dim = 0;              // Rows: index_copy_'s dimension
    Tensor index;                 // Rows: the row numbers
    std::vector<Tensor> indices;  // Elements: index_put_'s indices (undefined = all)
  };

  bool watched(const Tensor& t) const;
  void save(const Tensor& target, const OpCall& call, const PreparedNode& node);

  std::vector<const Storage*> storages_;
  std::vector<Entry> entries_;
};

// Rolls `journal` back on destruction unless the run committed.
class JournalScope {
 public:
  explicit JournalScope(WriteJournal& journal) : journal_(journal) {}
  ~JournalScope() {
    if (committed_) journal_.clear();
    else journal_.roll_back();
  }
  JournalScope(const JournalScope&) = delete;
  JournalScope& operator=(const JournalScope&) = delete;
  void commit() { committed_ = true; }

 private:
  WriteJournal& journal_;
  bool committed_ = false;
};

}  // namespace pt2web
