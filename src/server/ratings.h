#pragma once
// Ratings (issue 13, item 3): the Glicko-2 rating of every player in every game, cached from
// the store, updated once per rated game and written in the game's own batch (undone in memory
// if that batch fails). Which games are rated is the game's rating policy (rating_policy.h);
// this service only computes and keeps. Thread-safe.
#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "store/store.h"

namespace plateau::server {

class Ratings {
 public:
  // Reads stored ratings of a game (of the players named, or all when none is): nullopt when
  // the store cannot be read now.
  using Fetch = std::function<std::optional<std::vector<store::RatingRow>>(
      const std::string& game, const std::vector<std::string>& players)>;

  // At start-up: the stored ratings.
  void restore(const std::vector<store::RatingRow>& rows);
  // Several nodes on one database (docs/CLUSTER.md): games end on every node, so the cache is
  // read again before each use: rate_game() fetches the two players' rows first, standings()
  // the game's (at most once a second per game). If the fetch fails the cache answers. Call before the first game can end.
  void set_fetch(Fetch fetch) { fetch_ = std::move(fetch); }
  // Updates both players' ratings for one game of `game` (score_a: 1, 0.5 or 0 for player a),
  // adds both rows to `batch` with a rollback that restores the cache, and returns the lines
  // "alice's rating went up from 1500 to 1662." (with " (provisional)" while RD > 110).
  std::vector<std::string> rate_game(const std::string& game, const std::string& a,
                                     const std::string& b, double score_a, store::Batch& batch);
  // The players of `game`, best first.
  std::vector<store::RatingRow> standings(const std::string& game) const;

 private:
  // Replaces the cached rows of `game` by `rows` (all of them when `whole_game`). Locked.
  void refresh(const std::string& game, const std::vector<store::RatingRow>& rows, bool whole_game) const;

  static constexpr std::chrono::milliseconds kStandingsFetchEvery{1000};
  Fetch fetch_;
  // When standings() last read each game's rows from the store (one entry per registered game).
  mutable std::map<std::string, std::chrono::steady_clock::time_point> fetched_at_;
  mutable std::mutex mutex_;
  // A cache of the store, refreshed by standings() too (hence mutable).
  mutable std::map<std::pair<std::string, std::string>, store::RatingRow> rows_;  // (game, lower name)
};

}  // namespace plateau::server
