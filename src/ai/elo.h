#pragma once
// Elo difference from match results, with a 95% confidence interval (normal approximation of
// the mean score, mapped through the logistic Elo curve).
#include <string>
#include <vector>

namespace plateau::ai {

// Elo difference of a player scoring `score` (fraction of points, in [0, 1]) against another:
// -400 * log10(1 / score - 1); +infinity at 1 and -infinity at 0.
double elo_from_score(double score);

struct EloEstimate {
  int games = 0;
  double score = 0.5;  // mean score of the first player
  double diff = 0.0;   // Elo difference (first minus second)
  double low = 0.0;    // 95% interval of diff (may be infinite)
  double high = 0.0;
};

// From one score per game (1 win, 0.5 draw, 0 loss, or any value in between). The interval is
// mean ± 1.96 standard errors of the per-game scores (sample standard deviation), clamped to
// [0, 1], each bound mapped by elo_from_score. An empty list gives games = 0 and zeros.
EloEstimate estimate_elo(const std::vector<double>& scores);

// "+123.4 [+80.1, +170.2]" with "+inf"/"-inf" for infinite values.
std::string format_elo(const EloEstimate& e);

}  // namespace plateau::ai
