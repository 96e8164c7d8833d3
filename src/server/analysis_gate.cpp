#include "server/analysis_gate.h"

#include <algorithm>
#include <cmath>

#include "core/text.h"
#include "server/command.h"

namespace plateau::server {

namespace {

// Buckets kept before idle full ones are dropped (one per user who analysed recently).
constexpr std::size_t kPruneAbove = 4096;

std::string seconds_text(std::int64_t ms) {
  return std::to_string(std::max<std::int64_t>(1, (ms + 999) / 1000)) + " s";
}

}  // namespace

AnalysisGate::Ticket AnalysisGate::admit(const std::string& user, std::int64_t now_ms) {
  const std::string key = to_lower(user);
  std::lock_guard lock(counts_->mutex);
  if (counts_->buckets.size() > kPruneAbove) prune(now_ms);
  auto [it, fresh] = counts_->buckets.try_emplace(key);
  Bucket& b = it->second;
  if (fresh) {
    b.tokens = bounds_.burst;
    b.at_ms = now_ms;
  }
  if (b.busy) throw CommandError("an analysis of yours is still running; wait for its answer");
  // Refill: one token per refill period since the last count, up to the burst.
  const std::int64_t elapsed = std::max<std::int64_t>(0, now_ms - b.at_ms);
  b.tokens =
      std::min<double>(bounds_.burst, b.tokens + static_cast<double>(elapsed) / bounds_.refill_ms);
  b.at_ms = now_ms;
  if (b.tokens < 1.0) {
    const auto wait = static_cast<std::int64_t>(std::ceil((1.0 - b.tokens) * bounds_.refill_ms));
    throw CommandError("too many analyses: " + std::to_string(bounds_.burst) +
                       " in a row, then one every " + seconds_text(bounds_.refill_ms) +
                       "; try again in " + seconds_text(wait));
  }
  if (counts_->running >= bounds_.max_running) {
    throw CommandError("the server is busy with " + std::to_string(counts_->running) +
                       " analyses; try again in a moment");
  }
  b.tokens -= 1.0;
  b.busy = true;
  ++counts_->running;
  // The ticket's deleter gives the slot back; it holds the counts, not the bucket (prune may
  // drop idle buckets, never a busy one).
  return Ticket(static_cast<void*>(nullptr),
                [counts = counts_, key](void*) { release(*counts, key); });
}

void AnalysisGate::release(Counts& counts, const std::string& key) {
  std::lock_guard lock(counts.mutex);
  if (counts.running > 0) --counts.running;
  if (auto it = counts.buckets.find(key); it != counts.buckets.end()) it->second.busy = false;
}

std::size_t AnalysisGate::running() const {
  std::lock_guard lock(counts_->mutex);
  return counts_->running;
}

std::size_t AnalysisGate::users() const {
  std::lock_guard lock(counts_->mutex);
  return counts_->buckets.size();
}

void AnalysisGate::prune(std::int64_t now_ms) {
  auto& buckets = counts_->buckets;
  for (auto it = buckets.begin(); it != buckets.end();) {
    const Bucket& b = it->second;
    const double refilled = b.tokens + static_cast<double>(now_ms - b.at_ms) / bounds_.refill_ms;
    if (!b.busy && refilled >= bounds_.burst) {
      it = buckets.erase(it);
    } else {
      ++it;
    }
  }
}

}  // namespace plateau::server
