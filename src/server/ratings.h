#pragma once
// Ratings (issue 13, item 3): the Glicko-2 rating of every player in every game, cached from
// the store, updated once per rated game and written in the game's own batch (undone in memory
// if that batch fails). Which games are rated is the game's rating policy (rating_policy.h);
// this service only computes and keeps. Thread-safe.
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "store/store.h"

namespace plateau::server {

class Ratings {
 public:
  // At start-up: the stored ratings.
  void restore(const std::vector<store::RatingRow>& rows);
  // Updates both players' ratings for one game of `game` (score_a: 1, 0.5 or 0 for player a),
  // adds both rows to `batch` with a rollback that restores the cache, and returns the lines
  // "alice's rating went up from 1500 to 1662." (with " (provisional)" while RD > 110).
  std::vector<std::string> rate_game(const std::string& game, const std::string& a,
                                     const std::string& b, double score_a, store::Batch& batch);
  // The players of `game`, best first.
  std::vector<store::RatingRow> standings(const std::string& game) const;

 private:
  mutable std::mutex mutex_;
  std::map<std::pair<std::string, std::string>, store::RatingRow> rows_;  // (game, lower name)
};

}  // namespace plateau::server
