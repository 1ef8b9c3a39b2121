// A fork-join pool for the kernels: run_tasks(n, task) runs task(0..n-1)
// on the calling thread and the pool's workers, and returns when every task
// is done. parallel_for splits a range into one part per thread.
//
// Ownership: one process-wide pool of workers, created on first use. Its
// workers live until the process ends; idle ones spin briefly, then sleep on
// a condition variable.
// Thread count: nothing process-wide. A run states how many threads its
// parallel work may use, the caller included, by holding a ThreadBudget on
// the calling thread for its duration (runtime/loaded_program.h does, with
// the program's own count); without one, work is serial. Two threads running
// two programs each use their own count. Workers are started on demand up to
// the largest count asked for and never stopped; a smaller budget leaves the
// extra ones asleep. Builds without threads (wasm compiled without -pthread)
// always run serially and thread_count() stays 1.
// Results: kernels split work so that each output element is computed by one
// thread in the same order, so results are bit-identical for any count.
// Scheduling: tasks are claimed dynamically, and the caller never waits for a
// particular worker, so a worker that has not started yet (a pthread whose
// Web Worker is still loading) only costs parallelism, never a deadlock.
// The pool serves one job at a time; a run_tasks call made while another
// thread's job is running, or from inside a task, runs serially.
// Errors: the first exception thrown by a task is rethrown to the caller once
// every claimed task has finished; tasks not yet claimed are skipped.
// ThreadBudget throws std::invalid_argument for a count below 1.
#pragma once

#include <algorithm>
#include <cstdint>

namespace pt2web::parallel {

// Whether this build can run threads at all.
bool threads_supported();

// Threads parallel work started on the calling thread may use, the caller
// included (>= 1): the innermost ThreadBudget's count, or 1.
int thread_count();

// While alive, parallel work started on the constructing thread uses
// `threads` threads (at most 64, and 1 in builds without threads); restores
// the previous budget of that thread when it ends. Creating one starts the
// workers it needs and wakes sleeping ones, so they are polling by the time
// the run's first parallel kernel comes (a sleeping thread can take
// milliseconds to be scheduled again). Not to be moved between threads.
class ThreadBudget {
 public:
  explicit ThreadBudget(int threads);
  ~ThreadBudget();
  ThreadBudget(const ThreadBudget&) = delete;
  ThreadBudget& operator=(const ThreadBudget&) = delete;

 private:
  int previous_;
};

// The type-erased form of run_tasks.
void run_task_function(int64_t tasks, void (*task)(void* context, int64_t index), void* context);

template <class Task>
void run_tasks(int64_t tasks, Task&& task) {
  run_task_function(
      tasks, [](void* context, int64_t index) { (*static_cast<Task*>(context))(index); },
      static_cast<void*>(&task));
}

// Calls body(begin, end) on disjoint ranges covering [0, n): at most
// parts_per_thread ranges per thread, each at least min_items long and a
// multiple of `align` except the last. One range (the whole) when that leaves
// a single part. More parts than threads balance the load when a thread is
// late or shares its core, at the cost of more calls of body.
template <class Body>
void parallel_for(int64_t n, int64_t align, int64_t min_items, Body&& body, int parts_per_thread = 1) {
  const int threads = thread_count();
  const int64_t parts =
      threads == 1 ? 1
                   : std::min<int64_t>(int64_t{threads} * parts_per_thread, n / std::max<int64_t>(min_items, 1));
  if (parts <= 1) {
    if (n > 0) body(int64_t{0}, n);
    return;
  }
  int64_t step = (n + parts - 1) / parts;
  step = (step + align - 1) / align * align;
  const int64_t count = (n + step - 1) / step;
  run_tasks(count, [&](int64_t part) { body(part * step, std::min(n, (part + 1) * step)); });
}

// Work (multiply-adds, or element copies) below which a part is not worth
// handing to another thread: waking a worker costs a few microseconds.
constexpr int64_t kMinWorkPerThread = int64_t{1} << 17;

// The fewest items a part should hold when each item costs work_per_item.
inline int64_t min_items_for(int64_t work_per_item) {
  return std::max<int64_t>(1, kMinWorkPerThread / std::max<int64_t>(work_per_item, 1));
}

// Calls item(i) for every i in [0, n), split across threads when the parts
// are worth it (see min_items_for).
template <class Item>
void for_each_index(int64_t n, int64_t work_per_item, Item&& item) {
  parallel_for(
      n, 1, min_items_for(work_per_item),
      [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) item(i);
      },
      4);
}

}  // namespace pt2web::parallel
