#pragma once
// Glicko-2 ratings (Glickman, "Example of the Glicko-2 system", 2013). Each rated game is one
// rating period for both players. Ratings are on the Glicko scale (start 1500, deviation 350).
#include <vector>

namespace plateau::server {

struct Glicko {
  double rating = 1500.0;
  double deviation = 350.0;
  double volatility = 0.06;
};

// System constant tau (constrains volatility change); Glickman suggests 0.3..1.2.
inline constexpr double kGlickoTau = 0.5;

struct GlickoGame {
  Glicko opponent;
  double score = 0.5;  // 1 win, 0.5 draw, 0 loss
};

// `player`'s rating after one rating period with `games` (at least one).
Glicko glicko2_update(const Glicko& player, const std::vector<GlickoGame>& games);

// `player`'s new rating after one game against `opponent` with `score` (1 win, 0.5 draw, 0 loss).
inline Glicko glicko2_update(const Glicko& player, const Glicko& opponent, double score) {
  return glicko2_update(player, std::vector<GlickoGame>{{opponent, score}});
}

}  // namespace plateau::server
