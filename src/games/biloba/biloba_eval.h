#pragma once
// Biloba's evaluation (the State::evaluate hook, docs/AI.md "Biloba"), in pawns per seat, split
// into its terms so that tests can check each one. Rules references are specs/biloba.md.
#include <array>
#include <vector>

#include "games/biloba/biloba_rules.h"

namespace plateau::biloba {

struct SeatTerms {
  int pawns = 0;          // pawns on the board
  int threatened = 0;     // own pawns an enemy can sandwich next turn (§14's threat test)
  int flanks = 0;         // enemy pawns with an own pawn on one side and an empty square on the other
  double closeness = 0;   // 0..1: how near own pawns stand to the pawns of seats with ≥ 3 pawns
  double centrality = 0;  // 0..1: the mean of (4 − Chebyshev distance to e5) / 4 over own pawns
  bool doomed = false;    // ≤ 2 pawns and canEatSoon false: eliminated at its next turn (§6.2)
  double material = 0;    // the seat's value in pawns (the sum below)
};

// Weights, in pawns.
inline constexpr double kThreatWeight = 0.4;   // per threatened pawn
inline constexpr double kFlankWeight = 0.1;    // per flank, at most kMaxFlanks counted
inline constexpr int kMaxFlanks = 5;
// Closing in: a seat ahead by L pawns (at most 3 counted) gets kCloseWeight × L × closeness,
// so the leader walks towards the pawns it must sandwich and the others are not drawn in.
inline constexpr double kCloseWeight = 0.3;
inline constexpr double kTempo = 0.3;          // the seat to move
// Centrality: every seat is drawn to the middle, where the sandwiches are made. Each seat moves
// only its own pawns, so the term makes both sides engage instead of shuffling at home (a term
// like closeness, which both sides change together, would cancel out when material is even).
inline constexpr double kCentreWeight = 0.6;

// Every seat's terms. material = pawns − kThreatWeight · threatened + kFlankWeight · flanks
// (+ kCentreWeight · centrality, the closing-in bonus and the tempo), or 0 when doomed (§6.2: it will be removed).
std::vector<SeatTerms> seat_terms(const Position& pos);
// The same into `t` (seats 0..players-1; the others left as they are), without allocating: the
// search evaluates every leaf. Computed on bitboards (biloba_bits.h); biloba_eval_test.cpp
// checks every field equals the square-by-square reference bit for bit. With every_closeness
// false, closeness is computed only for the seats whose lead makes it count (the others get 0;
// every material is the same): the evaluation's way.
void fill_seat_terms(const Position& pos, std::array<SeatTerms, kMaxColours>& t,
                     bool every_closeness = true);

// The values of a draw (§6.3, the turn cap, the no-progress rule) into v[0..players-1]: shared
// by the seats with pawns, or by every seat when at most one has pawns (a lone survivor).
// BilobaState::no_progress_values() and returns() of a draw are these.
void draw_values(const Position& pos, std::array<double, kMaxColours>& v);

// The evaluation of a non-terminal position for every seat, in [0, 1]: 2 seats a logistic of
// 0.5 × the material difference; more seats shares of exp(0.5 × material) among the seats that
// still have pawns. `no_progress` in [0, 1] is how close the game is to its no-progress draw
// (turns without a capture / the limit; 0 without the rule): the values are pulled towards
// `draw` (the draw's values) by no_progress², so near the limit a leader must capture.
std::vector<double> evaluate_position(const Position& pos, double no_progress,
                                      const std::vector<double>& draw);

}  // namespace plateau::biloba
