#include "server/ratings.h"

#include <algorithm>
#include <cmath>

#include "core/text.h"
#include "server/glicko2.h"

namespace plateau::server {

void Ratings::restore(const std::vector<store::RatingRow>& rows) {
  std::lock_guard lock(mutex_);
  for (const auto& r : rows) rows_[{r.game, to_lower(r.player)}] = r;
}

void Ratings::refresh(const std::string& game, const std::vector<store::RatingRow>& rows,
                      bool whole_game) const {
  if (whole_game) std::erase_if(rows_, [&](const auto& kv) { return kv.first.first == game; });
  for (const auto& r : rows) {
    if (r.game == game) rows_[{game, to_lower(r.player)}] = r;
  }
}

std::vector<store::RatingRow> Ratings::standings(const std::string& game) const {
  std::vector<store::RatingRow> rows;
  // Anyone may ask standings at their rate: the store is read for a game at most once per
  // kStandingsFetchEvery, so that many askers cannot keep the I/O threads waiting on it.
  bool due = false;
  if (fetch_) {
    const auto now = std::chrono::steady_clock::now();
    std::lock_guard lock(mutex_);
    auto& last = fetched_at_[game];
    if (now - last >= kStandingsFetchEvery) {
      last = now;
      due = true;
    }
  }
  const auto fetched = due ? fetch_(game, {}) : std::nullopt;
  {
    std::lock_guard lock(mutex_);
    if (fetched) refresh(game, *fetched, true);
    for (const auto& [key, r] : rows_) {
      if (key.first == game) rows.push_back(r);
    }
  }
  std::sort(rows.begin(), rows.end(),
            [](const auto& a, const auto& b) { return a.rating > b.rating; });
  return rows;
}

std::vector<std::string> Ratings::rate_game(const std::string& game, const std::string& a,
                                            const std::string& b, double score_a,
                                            store::Batch& batch) {
  // Another node may have rated either player since: read both rows again (outside the lock:
  // one round trip). A game ending on two nodes in the same few milliseconds can still lose
  // one of the two updates (docs/CLUSTER.md).
  const auto fetched = fetch_ ? fetch_(game, {a, b}) : std::nullopt;
  std::lock_guard lock(mutex_);
  if (fetched) refresh(game, *fetched, false);
  auto get = [&](const std::string& p) -> store::RatingRow& {
    auto key = std::make_pair(game, to_lower(p));
    auto it = rows_.find(key);
    if (it == rows_.end()) {
      store::RatingRow row;
      row.game = game;
      row.player = p;
      it = rows_.emplace(key, row).first;
    }
    return it->second;
  };
  // If the batch fails, the cache goes back to what is stored (a row made just now goes).
  std::vector<std::pair<store::RatingRow, bool>> before;  // (row, it was there)
  for (const auto* p : {&a, &b}) {
    auto it = rows_.find({game, to_lower(*p)});
    before.emplace_back(it != rows_.end() ? it->second : store::RatingRow{}, it != rows_.end());
  }
  batch.on_rollback([this, game, a, b, before] {
    std::lock_guard lock(mutex_);
    const std::string names[] = {a, b};
    for (int i = 0; i < 2; ++i) {
      const auto key = std::make_pair(game, to_lower(names[i]));
      if (before[i].second) {
        rows_[key] = before[i].first;
      } else {
        rows_.erase(key);
      }
    }
  });
  store::RatingRow& ra = get(a);
  store::RatingRow& rb = get(b);
  const Glicko ga{ra.rating, ra.deviation, ra.volatility};
  const Glicko gb{rb.rating, rb.deviation, rb.volatility};
  const Glicko na = glicko2_update(ga, gb, score_a);
  const Glicko nb = glicko2_update(gb, ga, 1.0 - score_a);
  std::vector<std::string> lines;
  auto line = [](const std::string& p, double from, double to, double rd) {
    const long f = std::lround(from);
    const long t = std::lround(to);
    return p + "'s rating went " + (t >= f ? "up" : "down") + " from " + std::to_string(f) +
           " to " + std::to_string(t) + "." + (rd > 110 ? " (provisional)" : "");
  };
  lines.push_back(line(a, ra.rating, na.rating, na.deviation));
  lines.push_back(line(b, rb.rating, nb.rating, nb.deviation));
  ra.rating = na.rating;
  ra.deviation = na.deviation;
  ra.volatility = na.volatility;
  ++ra.games;
  rb.rating = nb.rating;
  rb.deviation = nb.deviation;
  rb.volatility = nb.volatility;
  ++rb.games;
  batch.put_rating(ra);
  batch.put_rating(rb);
  return lines;
}

}  // namespace plateau::server
