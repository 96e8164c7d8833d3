#include "games/phutball/phutball_rules.h"

#include <algorithm>
#include <cstdlib>
#include <string>

#include "core/zobrist.h"

namespace plateau::phutball {

namespace {

const ZobristTable& keys() {
  // Features: 0 = a man on the cell, 1 = the ball on the cell, 2 = Eks to move (value 0).
  static const ZobristTable kKeys(3, kCells, 0x9B7F0CBA11ull);
  return kKeys;
}

int sign(int v) { return (v > 0) - (v < 0); }

}  // namespace

std::uint64_t man_key(int cell) { return keys().key(0, static_cast<std::size_t>(cell)); }
std::uint64_t ball_key(int cell) { return keys().key(1, static_cast<std::size_t>(cell)); }
std::uint64_t side_key() { return keys().key(2, 0); }

Rules make_rules(int handicap_halves, bool own_goal_illegal, bool corner_exit,
                 Repetition repetition, int ply_cap, bool lenient_path) {
  Rules r;
  r.handicap_halves = handicap_halves;
  const bool half = handicap_halves % 2 != 0;
  // §2.3: integer N keeps 19 rows and starts on row 10 - N; a half-point adds a row and starts
  // on row 10.5 - N, i.e. (21 - 2N) / 2.
  r.rows = half ? 20 : 19;
  r.start_row = half ? (21 - handicap_halves) / 2 : 10 - handicap_halves / 2;
  r.own_goal_illegal = own_goal_illegal;
  r.corner_exit = corner_exit;
  r.repetition = repetition;
  r.ply_cap = ply_cap;
  r.lenient_path = lenient_path;
  for (int row = 0; row <= r.rows + 1; ++row) {
    const bool beyond = row == 0 || row == r.rows + 1;
    for (int col = -1; col <= kColumns; ++col) {
      const bool inside = col >= 0 && col < kColumns;
      Landing l = Landing::kNone;
      if (inside) l = beyond ? Landing::kBeyond : Landing::kPoint;
      if (!inside && beyond && corner_exit) l = Landing::kBeyond;
      r.landing[cell_of(col, row)] = l;
      if (l == Landing::kPoint) r.points.push_back(static_cast<std::int16_t>(cell_of(col, row)));
    }
  }
  // Names sort by column letter, then by the row number's digits as text.
  r.points_by_name = r.points;
  std::sort(r.points_by_name.begin(), r.points_by_name.end(), [](int a, int b) {
    if (column_of(a) != column_of(b)) return column_of(a) < column_of(b);
    return std::to_string(row_of(a)) < std::to_string(row_of(b));
  });
  return r;
}

bool is_rated(const Rules& rules) {
  return rules.handicap_halves == 0 || rules.handicap_halves == 1;
}

void refresh(Position& pos) {
  pos.men_count = 0;
  pos.key = ball_key(pos.ball) ^ (pos.to_move == kEks ? side_key() : 0);
  for (int c = 0; c < kCells; ++c) {
    if (pos.men[c]) {
      ++pos.men_count;
      pos.key ^= man_key(c);
    }
  }
}

Position start_position(const Rules& rules) {
  Position pos;
  pos.ball = static_cast<std::int16_t>(cell_of(7, rules.start_row));  // column H
  pos.to_move = kOhs;
  refresh(pos);
  return pos;
}

Outcome ball_outcome(const Rules& rules, int ball) {
  const int row = row_of(ball);
  if (row >= rules.rows) return Outcome::kOhsWins;
  if (row <= 1) return Outcome::kEksWins;
  return Outcome::kNone;
}

bool is_own_goal(const Rules& rules, int mover, int ball) {
  const int row = row_of(ball);
  return mover == kOhs ? row <= 1 : row >= rules.rows;
}

HopCheck check_hop(const Rules& rules, const Position& pos, int to) {
  const int from = pos.ball;
  if (!on_board(rules, from)) return {HopError::kStartsOffBoard};
  const int dx = column_of(to) - column_of(from);
  const int dy = row_of(to) - row_of(from);
  if (dx == 0 && dy == 0) return {HopError::kZeroLength};
  if (dx != 0 && dy != 0 && std::abs(dx) != std::abs(dy)) return {HopError::kNotStraight};
  if (std::max(std::abs(dx), std::abs(dy)) == 1) return {HopError::kAdjacent};
  const int d = sign(dy) * kWidth + sign(dx);
  for (int c = from + d; c != to; c += d) {
    if (!pos.men[c]) return {HopError::kPassesEmpty, c};
  }
  if (pos.men[to]) return {HopError::kLandsOnMan};
  if (rules.landing[to] == Landing::kNone) return {HopError::kOffSide};
  return {};
}

void make_hop(Position& pos, int to) {
  const int from = pos.ball;
  const int d = sign(row_of(to) - row_of(from)) * kWidth + sign(column_of(to) - column_of(from));
  for (int c = from + d; c != to; c += d) {
    pos.men[c] = 0;
    pos.key ^= man_key(c);
    --pos.men_count;
  }
  pos.key ^= ball_key(from) ^ ball_key(to);
  pos.ball = static_cast<std::int16_t>(to);
}

void apply_move(Position& pos, const std::uint16_t* codes, std::size_t size) {
  if (size == 1) {
    pos.men[codes[0]] = 1;
    pos.key ^= man_key(codes[0]);
    ++pos.men_count;
  } else {
    for (std::size_t i = 1; i < size; ++i) make_hop(pos, codes[i]);
  }
  pos.to_move = static_cast<std::int8_t>(1 - pos.to_move);
  pos.key ^= side_key();
}

}  // namespace plateau::phutball
