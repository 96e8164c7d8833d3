#include "store/store.h"

#include <chrono>
#include <cstdio>
#include <stdexcept>

#include "store/sqlite_backend.h"

namespace plateau::store {

namespace {

std::int64_t wall_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

Store::Store(const std::filesystem::path& path, int heartbeat_ms)
    : Store(std::make_unique<SqliteBackend>(path), heartbeat_ms) {}

Store::Store(std::unique_ptr<Backend> backend, int heartbeat_ms)
    : backend_(std::move(backend)), heartbeat_ms_(heartbeat_ms) {
  if (!backend_) throw std::invalid_argument("Store: no backend");
  writer_ = std::thread([this] { writer_loop(); });
}

Store::~Store() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (writer_.joinable()) writer_.join();
}

int Store::schema_version() const { return backend_->schema_version(); }

Snapshot Store::load() { return backend_->load(); }

void Store::submit(Batch batch, Done done) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back({std::move(batch), std::move(done)});
    ++submitted_;
  }
  wake_.notify_one();
}

void Store::flush() {
  std::unique_lock lock(mutex_);
  const std::uint64_t target = submitted_;
  drained_.wait(lock, [&] { return written_ >= target; });
}

StoreStats Store::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

void Store::writer_loop() {
  for (;;) {
    std::vector<Pending> group;
    bool stop = false;
    {
      std::unique_lock lock(mutex_);
      auto ready = [&] { return stopping_ || !queue_.empty(); };
      if (heartbeat_ms_ > 0) {
        wake_.wait_for(lock, std::chrono::milliseconds(heartbeat_ms_), ready);
      } else {
        wake_.wait(lock, ready);
      }
      stop = stopping_ && queue_.empty();
      group.reserve(queue_.size());
      while (!queue_.empty()) {
        group.push_back(std::move(queue_.front()));
        queue_.pop_front();
      }
    }
    // An empty group is a heartbeat (idle for heartbeat_ms, or the last one when stopping).
    write_group(group);
    if (stop) return;
  }
}

void Store::write_group(std::vector<Pending>& group) {
  // The backend is used only by this thread once load() has returned; the mutex guards the
  // queue and counters, so it is not held during the fsync.
  std::vector<const Batch*> batches;
  batches.reserve(group.size());
  for (const Pending& p : group) batches.push_back(&p.batch);
  GroupOutcome outcome;
  try {
    outcome = backend_->commit_group(batches, wall_ms());
  } catch (...) {
    outcome.commit_error = std::current_exception();
  }
  // A backend that reports fewer slots than batches must not leave a batch "done" unknowingly.
  if (!outcome.commit_error && outcome.batch_errors.size() != group.size()) {
    outcome.commit_error = std::make_exception_ptr(
        std::logic_error("store backend reported " + std::to_string(outcome.batch_errors.size()) +
                         " results for " + std::to_string(group.size()) + " batches"));
  }
  {
    std::lock_guard lock(mutex_);
    stats_.batches += group.size();
    if (!outcome.commit_error && !group.empty()) ++stats_.commits;  // not heartbeats
  }
  for (std::size_t i = 0; i < group.size(); ++i) {
    std::exception_ptr e = outcome.commit_error ? outcome.commit_error : outcome.batch_errors[i];
    // A callback that throws must not take the writer (and the server) down, nor keep the
    // other callbacks from running.
    try {
      if (group[i].done) group[i].done(e);
    } catch (const std::exception& x) {
      std::fprintf(stderr, "store: a commit callback failed: %s\n", x.what());
    } catch (...) {
      std::fprintf(stderr, "store: a commit callback failed\n");
    }
  }
  // The callbacks are destroyed here too, with whatever they hold (a table's pending events, a
  // connection): once flush() has returned, the server may tear down the I/O those need.
  const std::size_t count = group.size();
  group.clear();
  {
    // flush() returns only after the callbacks of everything it waited for have run.
    std::lock_guard lock(mutex_);
    written_ += count;
  }
  drained_.notify_all();
}

}  // namespace plateau::store
