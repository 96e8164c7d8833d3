#include "ai/elo.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace plateau::ai {

double elo_from_score(double score) {
  if (score >= 1.0) return std::numeric_limits<double>::infinity();
  if (score <= 0.0) return -std::numeric_limits<double>::infinity();
  return -400.0 * std::log10(1.0 / score - 1.0);
}

EloEstimate estimate_elo(const std::vector<double>& scores) {
  EloEstimate e;
  e.games = static_cast<int>(scores.size());
  if (scores.empty()) return e;
  double sum = 0.0;
  for (double s : scores) sum += s;
  const double n = static_cast<double>(scores.size());
  e.score = sum / n;
  double var = 0.0;
  for (double s : scores) var += (s - e.score) * (s - e.score);
  var = scores.size() > 1 ? var / (n - 1.0) : 0.0;
  const double half = 1.96 * std::sqrt(var / n);
  e.diff = elo_from_score(e.score);
  e.low = elo_from_score(std::clamp(e.score - half, 0.0, 1.0));
  e.high = elo_from_score(std::clamp(e.score + half, 0.0, 1.0));
  return e;
}

namespace {
std::string signed_value(double v) {
  if (std::isinf(v)) return v > 0 ? "+inf" : "-inf";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.1f", v);
  return buf;
}
}  // namespace

std::string format_elo(const EloEstimate& e) {
  return signed_value(e.diff) + " [" + signed_value(e.low) + ", " + signed_value(e.high) + "]";
}

}  // namespace plateau::ai
