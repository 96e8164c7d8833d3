#pragma once
// A log line that repeats under load (accept failing for lack of descriptors) written at most
// once per interval, with the number of repeats it stood for, so that the log cannot flood.
#include <chrono>
#include <cstddef>
#include <mutex>
#include <optional>

namespace plateau::server {

class RateLimitedLog {
 public:
  explicit RateLimitedLog(std::chrono::milliseconds interval = std::chrono::seconds(1))
      : interval_(interval) {}

  // Call on each occurrence. Returns the number of occurrences since the last line written
  // (this one included) when a line is due now, else nothing (the occurrence is counted).
  // Thread-safe.
  std::optional<std::size_t> due() {
    std::lock_guard lock(mutex_);
    ++count_;
    const auto now = std::chrono::steady_clock::now();
    if (written_ && now - last_ < interval_) return std::nullopt;
    written_ = true;
    last_ = now;
    const std::size_t n = count_;
    count_ = 0;
    return n;
  }

 private:
  std::chrono::milliseconds interval_;
  std::mutex mutex_;
  bool written_ = false;
  std::chrono::steady_clock::time_point last_;
  std::size_t count_ = 0;
};

}  // namespace plateau::server
