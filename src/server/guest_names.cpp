#include "server/guest_names.h"

#include <spdlog/spdlog.h>

#include <algorithm>

namespace plateau::server {

GuestNames::GuestNames(store::Store& store, std::int64_t block)
    : store_(store), block_(std::max<std::int64_t>(block, 1)) {}

void GuestNames::restore(const std::map<std::string, std::int64_t>& counters,
                         std::int64_t highest_used) {
  std::lock_guard lock(mutex_);
  auto it = counters.find(kCounter);
  const std::int64_t stored = it == counters.end() ? 1 : it->second;
  next_ = std::max({next_, stored, highest_used + 1});
  durable_ = next_;  // nothing at or above next_ is reserved yet
}

std::int64_t GuestNames::next() const {
  std::lock_guard lock(mutex_);
  return next_;
}

void GuestNames::issue(Ready ready) {
  std::string name;
  if (reserve_) {
    {
      std::lock_guard lock(mutex_);
      if (next_ >= durable_) {
        try {
          const std::int64_t end = reserve_(next_, block_);
          next_ = end - block_;
          durable_ = end;
        } catch (const std::exception& e) {
          spdlog::error("guests: cannot reserve guest numbers: {}", e.what());
        }
      }
      if (next_ < durable_) name = "guest" + std::to_string(next_++);
    }
    if (name.empty()) {
      return ready("", "the server cannot store guest names right now; try again later");
    }
    return ready(std::move(name), "");
  }
  {
    std::lock_guard lock(mutex_);
    if (reserving_ || next_ >= durable_) {
      waiting_.push_back(std::move(ready));
      if (!reserving_) reserve_locked();
      return;
    }
    name = "guest" + std::to_string(next_++);
  }
  ready(std::move(name), "");
}

void GuestNames::reserve_locked() {
  reserving_ = true;
  // Room for everyone already waiting, and a block more.
  const std::int64_t until = next_ + static_cast<std::int64_t>(waiting_.size()) + block_;
  store::Batch batch;
  batch.put_counter(kCounter, until);
  store_.submit(std::move(batch), [this, until](std::exception_ptr error) {
    if (error) {
      try {
        std::rethrow_exception(error);
      } catch (const std::exception& e) {
        spdlog::error("guests: cannot store the guest counter: {}", e.what());
      }
    }
    reserved(until, !error);
  });
}

void GuestNames::reserved(std::int64_t until, bool ok) {
  std::vector<std::pair<Ready, std::string>> answers;
  {
    std::lock_guard lock(mutex_);
    reserving_ = false;
    if (ok) durable_ = std::max(durable_, until);
    std::vector<Ready> waiting = std::move(waiting_);
    waiting_.clear();
    for (auto& r : waiting) {
      if (ok && next_ < durable_) {
        answers.emplace_back(std::move(r), "guest" + std::to_string(next_++));
      } else if (ok) {
        waiting_.push_back(std::move(r));  // more came than the block holds: next block
      } else {
        answers.emplace_back(std::move(r), "");
      }
    }
    if (!waiting_.empty()) reserve_locked();
  }
  for (auto& [r, name] : answers) {
    if (name.empty()) {
      r("", "the server cannot store guest names right now; try again later");
    } else {
      r(std::move(name), "");
    }
  }
}

}  // namespace plateau::server
