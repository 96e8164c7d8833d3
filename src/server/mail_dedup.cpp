// MailDedup (mail_dedup.h): the inbound mail already run, in memory and in the store.
#include "server/mail_dedup.h"

#include "core/text.h"

namespace plateau::server {

MailDedup::Key MailDedup::key(const std::string& sender, const std::string& message_id) {
  return {to_lower(sender), message_id};
}

void MailDedup::restore(const std::vector<store::MailSeenRow>& rows, std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  for (const auto& r : rows) {
    const Key k{r.sender, r.message_id};
    if (seen_.emplace(k, r.seen_ms).second) order_.emplace_back(r.seen_ms, k);
  }
  evict(now_ms);
}

MailDedup::Claim MailDedup::claim(const std::string& sender, const std::string& message_id) {
  if (message_id.empty()) return Claim::kUnknown;
  const Key k = key(sender, message_id);
  std::lock_guard lock(mutex_);
  if (seen_.count(k)) return Claim::kDone;
  if (!running_.insert(k).second) return Claim::kRunning;
  return Claim::kRun;
}

void MailDedup::release(const std::string& sender, const std::string& message_id) {
  if (message_id.empty()) return;
  std::lock_guard lock(mutex_);
  running_.erase(key(sender, message_id));
}

void MailDedup::done_with(const std::string& sender, const std::string& message_id,
                          std::int64_t now_ms, std::function<void(std::string error)> done) {
  if (message_id.empty()) return done("");
  const Key k = key(sender, message_id);
  std::int64_t forget_before = 0;
  {
    std::lock_guard lock(mutex_);
    running_.erase(k);
    if (seen_.emplace(k, now_ms).second) order_.emplace_back(now_ms, k);
    forget_before = evict(now_ms);
  }
  store::Batch batch;
  batch.put_mail_seen({k.first, k.second, now_ms});
  if (forget_before > 0) batch.prune_mail_seen(forget_before);
  store_.submit(std::move(batch), [done = std::move(done)](std::exception_ptr error) {
    done(error ? "could not record the mail as done" : "");
  });
}

std::size_t MailDedup::size() const {
  std::lock_guard lock(mutex_);
  return seen_.size();
}

std::int64_t MailDedup::evict(std::int64_t now_ms) {
  std::int64_t forget_before = 0;
  while (!order_.empty() &&
         (order_.size() > kMaxKept || order_.front().first < now_ms - kKeepMs)) {
    forget_before = std::max(forget_before, order_.front().first + 1);
    seen_.erase(order_.front().second);
    order_.pop_front();
  }
  return forget_before;
}

}  // namespace plateau::server
