#pragma once
// Small helpers shared by the table's source files (not part of the table's interface).
#include <cmath>
#include <cstdint>
#include <ctime>
#include <string>
#include <vector>

#include "core/text.h"

namespace plateau::server::table_detail {

inline bool same_name(const std::string& a, const std::string& b) {
  return to_lower(a) == to_lower(b);
}

// "2026-11-29 12:00:00 UTC" for `ms` since the epoch.
inline std::string utc_time(std::int64_t ms) {
  std::time_t t = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S UTC", &tm);
  return buf;
}

inline std::string utc_date(std::int64_t ms) { return utc_time(ms).substr(0, 10); }

}  // namespace plateau::server::table_detail
