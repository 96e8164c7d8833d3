// Biloba's move lists (core/state.h): every turn token, one token per resulting position within
// a work budget, and that list in the search's order (captures first) made in the same pass.
#include <algorithm>
#include <limits>
#include <utility>

#include "games/biloba/biloba_gains.h"
#include "games/biloba/biloba_game.h"
#include "games/biloba/biloba_movegen.h"
#include "games/biloba/biloba_seen_cells.h"

namespace plateau::biloba {

namespace {

// The turns of pos.to_move, one per resulting position, in choice order, until budget.limit
// choices were made; captured(i, token, gain) is called for each turn i of the list that went
// through a Turn (it may capture), with its turn_gain. Every other turn is a move body that captures
// nothing (gain 0). Precondition: the game is not over.
template <class Captured>
std::vector<Move> distinct_turns(const Position& pos, bool pass_when_stuck, WorkBudget& budget,
                                 Captured&& captured) {
  std::vector<Move> moves;
  moves.reserve(128);
  // A turn that captures nothing leaves the board as before but for its pawn, so two such turns
  // reach the same position iff they move the same pawn to the same square (a step or jump and
  // a centre walk, or two walks: the first in choice order is kept). A turn that captures
  // changes the pawn counts, so it never reaches the position of one that does not.
  int last_from = -1;
  Bits final_seen = 0;
  SeenCells seen;
  std::uint64_t visited = budget.used;
  auto stop = [&budget] { return budget.stop && budget.stop(); };
  BoundedChoices<decltype(stop)> choices(budget.limit, &visited, stop);
  for_each_turn_fast(
      pos, pass_when_stuck, choices,
      [&](int from, int to, int exit) {
        if (from != last_from) {
          last_from = from;
          final_seen = 0;
        }
        const Bits final_square = bit(exit >= 0 ? exit : to);
        if (final_seen & final_square) return;
        final_seen |= final_square;
        push_body(moves, from, to, exit);
      },
      [&](const Turn& t) {
        // The seat to move next follows from the board, so the cells decide the position.
        if (!seen.insert(t.position().cell)) return;
        moves.push_back(t.token());
        captured(moves.size() - 1, moves.back(), turn_gain(pos, t.position(), pos.to_move));
      });
  budget.used = visited;
  if (choices.halted()) budget.truncated = true;
  return moves;
}

}  // namespace

void order_by_gain(std::vector<Move>& moves, std::vector<std::pair<int, std::size_t>>& keyed) {
  const std::size_t k = keyed.size();
  if (k == 0) return;  // every key equal: the stable order is the given one
  std::size_t winners = 0;
  for (const auto& key : keyed) winners += key.first < 0 ? 1 : 0;
  // The keyed moves out, in index order; keyed[j] becomes (key, j), which sorts as (key, index).
  std::vector<Move> out;
  out.reserve(k);
  for (std::size_t j = 0; j < k; ++j) {
    out.push_back(std::move(moves[keyed[j].second]));
  }
  // The moves with gain 0 keep their order, between the winners and the losers: one between
  // keyed j − 1 and keyed j moves by winners − j. That shift falls as j grows, so those moving
  // right are moved from the right and those moving left from the left, each onto a free place.
  auto segment = [&](std::size_t j) {  // [begin, end) of the moves between keyed j − 1 and j
    const std::size_t begin = j == 0 ? 0 : keyed[j - 1].second + 1;
    const std::size_t end = j == k ? moves.size() : keyed[j].second;
    return std::pair{begin, end};
  };
  for (std::size_t j = winners; j-- > 0;) {
    const auto [begin, end] = segment(j);
    const std::size_t shift = winners - j;
    for (std::size_t i = end; i-- > begin;) moves[i + shift] = std::move(moves[i]);
  }
  for (std::size_t j = winners + 1; j <= k; ++j) {
    const auto [begin, end] = segment(j);
    const std::size_t shift = j - winners;
    for (std::size_t i = begin; i < end; ++i) moves[i - shift] = std::move(moves[i]);
  }
  for (std::size_t j = 0; j < k; ++j) keyed[j].second = j;
  std::sort(keyed.begin(), keyed.end());
  for (std::size_t p = 0; p < winners; ++p) moves[p] = std::move(out[keyed[p].second]);
  for (std::size_t p = winners; p < k; ++p) {
    moves[moves.size() - k + p] = std::move(out[keyed[p].second]);
  }
}

std::vector<Move> BilobaState::legal_moves() const {
  std::vector<Move> moves;
  if (outcome_ != Outcome::kOngoing) return moves;
  moves.reserve(128);
  AllChoices all;
  for_each_turn_fast(
      pos_, game_->pass_when_stuck(), all,
      [&moves](int from, int to, int exit) { push_body(moves, from, to, exit); },
      [&moves](const Turn& t) { moves.push_back(t.token()); });
  return moves;
}

std::vector<Move> BilobaState::distinct_moves() const {
  WorkBudget unbounded{std::numeric_limits<std::uint64_t>::max()};
  return bounded_distinct_moves(unbounded);
}

std::vector<Move> BilobaState::bounded_distinct_moves(WorkBudget& budget) const {
  if (outcome_ != Outcome::kOngoing) return {};
  // The gains of the turns played through a Turn, for an order_moves() that may follow.
  TurnGainMemo& memo = TurnGainMemo::of_thread();
  memo.clear();
  std::vector<Move> moves =
      distinct_turns(pos_, game_->pass_when_stuck(), budget,
                     [&memo](std::size_t, const Move& token, int gain) { memo.add(token, gain); });
  memo.pass_when_stuck = game_->pass_when_stuck();
  memo.pos = pos_;
  memo.valid = true;
  return moves;
}

std::vector<Move> BilobaState::ordered_distinct_moves(WorkBudget& budget) const {
  if (outcome_ != Outcome::kOngoing) return {};
  // What order_moves() keys: the turns that win or lose pawns, as (−gain, index). The others
  // are move bodies that capture nothing, which order_moves() leaves in their order.
  std::vector<std::pair<int, std::size_t>> keyed;
  std::vector<Move> moves =
      distinct_turns(pos_, game_->pass_when_stuck(), budget,
                     [&keyed](std::size_t i, const Move&, int gain) {
                       if (gain != 0) keyed.emplace_back(-gain, i);
                     });
  order_by_gain(moves, keyed);
  return moves;
}

}  // namespace plateau::biloba
