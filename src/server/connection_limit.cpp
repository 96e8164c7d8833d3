#include "server/connection_limit.h"

namespace plateau::server {

ConnectionLimit::ConnectionLimit(std::size_t per_address, std::size_t total)
    : per_address_(per_address), total_limit_(total) {}

ConnectionLimit::Slot ConnectionLimit::admit(const std::string& address, Refusal* why) {
  {
    std::lock_guard lock(mutex_);
    std::size_t& n = by_address_[address];
    Refusal refusal = Refusal::kNone;
    if (total_ >= total_limit_) {
      refusal = Refusal::kTotal;
    } else if (n >= per_address_) {
      refusal = Refusal::kPerAddress;
    }
    if (why) *why = refusal;
    if (refusal != Refusal::kNone) {
      if (n == 0) by_address_.erase(address);
      return nullptr;
    }
    ++n;
    ++total_;
  }
  // The slot owns a reference to the counter, so it may outlive whoever made it.
  auto self = shared_from_this();
  return Slot(static_cast<const void*>(this),
              [self, address](const void*) { self->release(address); });
}

void ConnectionLimit::release(const std::string& address) {
  std::lock_guard lock(mutex_);
  auto it = by_address_.find(address);
  if (it != by_address_.end() && --it->second == 0) by_address_.erase(it);
  --total_;
}

std::size_t ConnectionLimit::open_from(const std::string& address) const {
  std::lock_guard lock(mutex_);
  auto it = by_address_.find(address);
  return it == by_address_.end() ? 0 : it->second;
}

std::size_t ConnectionLimit::open_total() const {
  std::lock_guard lock(mutex_);
  return total_;
}

const char* refusal_text(ConnectionLimit::Refusal why) {
  return why == ConnectionLimit::Refusal::kTotal ? "too many connections; try again later"
                                                 : "too many connections from your address";
}

}  // namespace plateau::server
