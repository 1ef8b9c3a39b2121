#include "kernels/parallel/thread_pool.h"

#include <stdexcept>
#include <string>

#if !defined(__EMSCRIPTEN__) || defined(__EMSCRIPTEN_PTHREADS__)
#define PT2WEB_HAS_THREADS 1
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>
#else
#define PT2WEB_HAS_THREADS 0
#endif

namespace pt2web::parallel {

namespace {

constexpr int kMaxThreads = 64;

void check_count(int threads) {
  if (threads < 1) throw std::invalid_argument("thread count must be at least 1, got " + std::to_string(threads));
}

}  // namespace

#if PT2WEB_HAS_THREADS

namespace {

// One run_tasks call, on the caller's stack. Workers touch it only between
// entering/leaving the pool's `entering_` section (see Pool::join).
struct Job {
  uint64_t id = 0;
  int64_t tasks = 0;
  int helpers = 0;  // workers with index < helpers may join
  void (*task)(void*, int64_t) = nullptr;
  void* context = nullptr;
  std::atomic<int64_t> next{0};
  std::atomic<int64_t> done{0};
  std::atomic<bool> failed{false};
  std::exception_ptr error;  // written by the one thread that set `failed`
};

thread_local bool inside_task = false;

// The calling thread's ThreadBudget count (1 outside any).
thread_local int budget = 1;

// Claims and runs tasks of `job` until none are left.
void work_on(Job& job) {
  inside_task = true;
  for (int64_t i = job.next.fetch_add(1); i < job.tasks; i = job.next.fetch_add(1)) {
    if (!job.failed.load(std::memory_order_relaxed)) {
      try {
        job.task(job.context, i);
      } catch (...) {
        if (!job.failed.exchange(true)) job.error = std::current_exception();
      }
    }
    job.done.fetch_add(1, std::memory_order_release);
  }
  inside_task = false;
}

class Pool {
 public:
  ~Pool() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    for (auto& worker : workers_) worker.join();
  }

  // Gets sleeping workers polling again, ahead of parallel work.
  void wake() {
    if (sleepers_.load() == 0) return;
    std::lock_guard<std::mutex> lock(mutex_);
    alarms_.fetch_add(1);
    wake_.notify_all();
  }

  // Starts workers until there are at least `count`.
  void ensure_workers(int count) {
    std::lock_guard<std::mutex> lock(grow_mutex_);
    while (static_cast<int>(workers_.size()) < count) {
      const int index = static_cast<int>(workers_.size());
      workers_.emplace_back([this, index] { worker_loop(index); });
    }
  }

  // Runs the tasks with the caller and up to `helpers` workers; serially when
  // another thread is already running a job (the pool serves one caller at a time).
  void run(int64_t tasks, int helpers, void (*task)(void*, int64_t), void* context) {
    std::unique_lock<std::mutex> running(run_mutex_, std::try_to_lock);
    if (!running.owns_lock()) {
      for (int64_t i = 0; i < tasks; ++i) task(context, i);
      return;
    }
    Job job;
    job.id = ++last_id_;
    job.tasks = tasks;
    job.helpers = helpers;
    job.task = task;
    job.context = context;
    current_.store(&job);
    published_id_.store(job.id);
    if (sleepers_.load() > 0) {
      std::lock_guard<std::mutex> lock(mutex_);
      wake_.notify_all();
    }
    work_on(job);
    while (job.done.load(std::memory_order_acquire) < tasks) {
    }
    // Unpublish, then wait until no worker can still be reading the job.
    published_id_.store(0);
    current_.store(nullptr);
    while (entering_.load() != 0) {
    }
    if (job.error) std::rethrow_exception(job.error);
  }

 private:
  // Polled without entering: reads only the published id, never the job.
  bool has_new_job(uint64_t seen) const {
    const uint64_t id = published_id_.load();
    return id != 0 && id != seen;
  }

  // Polls for a new job for up to kSpinTime; true when one came.
  bool spin_for_job(uint64_t seen) const {
    const auto until = std::chrono::steady_clock::now() + kSpinTime;
    for (;;) {
      for (int poll = 0; poll < 1024; ++poll)
        if (has_new_job(seen)) return true;
      if (std::chrono::steady_clock::now() > until) return false;
    }
  }

  void worker_loop(int index) {
    uint64_t seen = 0;
    uint64_t alarms_seen = alarms_.load();
    for (;;) {
      if (!spin_for_job(seen)) {
        std::unique_lock<std::mutex> lock(mutex_);
        sleepers_.fetch_add(1);
        wake_.wait(lock, [&] { return stopping_ || has_new_job(seen) || alarms_.load() != alarms_seen; });
        sleepers_.fetch_sub(1);
        alarms_seen = alarms_.load();
        if (stopping_) return;
      }
      if (has_new_job(seen)) seen = join(index, seen);
    }
  }

  // Works on the published job if it is new to this worker and wants it;
  // returns the id of the job seen.
  uint64_t join(int index, uint64_t seen) {
    entering_.fetch_add(1);
    Job* job = current_.load();
    if (job != nullptr && job->id != seen) {
      seen = job->id;
      if (index < job->helpers) work_on(*job);
    }
    entering_.fetch_sub(1);
    return seen;
  }

  // How long an idle worker polls before it sleeps: long enough to bridge
  // the serial work between two parallel kernels of one run.
  static constexpr std::chrono::microseconds kSpinTime{2000};

  std::vector<std::thread> workers_;  // appended under grow_mutex_
  std::atomic<Job*> current_{nullptr};
  std::atomic<uint64_t> published_id_{0};  // the current job's id, 0 when none
  std::atomic<int> entering_{0};
  std::atomic<int> sleepers_{0};
  std::atomic<uint64_t> alarms_{0};  // bumped by wake() to get sleepers spinning
  uint64_t last_id_ = 0;
  std::mutex run_mutex_;   // held by the thread running a job
  std::mutex grow_mutex_;  // held while workers are started
  std::mutex mutex_;      // guards sleeping and stopping_
  std::condition_variable wake_;
  bool stopping_ = false;
};

Pool& pool() {
  static Pool instance;
  return instance;
}

}  // namespace

bool threads_supported() { return true; }

int thread_count() { return budget; }

ThreadBudget::ThreadBudget(int threads) : previous_(budget) {
  check_count(threads);
  budget = std::min(threads, kMaxThreads);
  if (budget > 1) {
    pool().ensure_workers(budget - 1);
    pool().wake();
  }
}

ThreadBudget::~ThreadBudget() { budget = previous_; }

void run_task_function(int64_t tasks, void (*task)(void*, int64_t), void* context) {
  if (tasks <= 0) return;
  if (tasks == 1 || inside_task || budget == 1) {
    for (int64_t i = 0; i < tasks; ++i) task(context, i);
    return;
  }
  pool().run(tasks, budget - 1, task, context);
}

#else  // no threads in this build

bool threads_supported() { return false; }

int thread_count() { return 1; }

ThreadBudget::ThreadBudget(int threads) : previous_(1) { check_count(threads); }

ThreadBudget::~ThreadBudget() = default;

void run_task_function(int64_t tasks, void (*task)(void*, int64_t), void* context) {
  for (int64_t i = 0; i < tasks; ++i) task(context, i);
}

#endif

}  // namespace pt2web::parallel
