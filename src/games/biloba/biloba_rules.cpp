#include "games/biloba/biloba_rules.h"

#include <algorithm>

namespace plateau::biloba {

namespace {

// Start layouts of §2.2, rank 9 first, as in a position string.
constexpr const char* kStart2[9] = {"##..O..##", "#..OOO..#", "..OOOOO..", ".OOOOOOO.", "....*....",
                                    ".BBBBBBB.", "..BBBBB..", "#..BBB..#", "##..B..##"};
constexpr const char* kStart4[9] = {"##OO.OO##", "#..OOO..#", "G...O...B", "GG.....BB", ".GG.*.BB.",
                                    "GG.....BB", "G...R...B", "#..RRR..#", "##RR.RR##"};

}  // namespace

Position empty_position(int players) {
  Position pos;
  pos.players = players;
  for (int sq = 0; sq < kSquares; ++sq) {
    pos.cell[sq] = is_playable(sq) ? kEmpty : kWall;
    pos.pawn_id[sq] = kNoPawn;
  }
  return pos;
}

void renumber(Position& pos) {
  pos.count = {};
  // Scan order (§1.3): x ascending, then y ascending.
  for (int x = 0; x < kSize; ++x) {
    for (int y = 0; y < kSize; ++y) {
      const int sq = square_of(x, y);
      const std::uint8_t c = pos.cell[sq];
      pos.pawn_id[sq] = c < kMaxColours ? pos.count[c]++ : kNoPawn;
    }
  }
}

Position start_position(int players) {
  Position pos = empty_position(players);
  const auto& rows = players == 2 ? kStart2 : kStart4;
  for (int sq = 0; sq < kSquares; ++sq) {
    const int colour = colour_of_label(rows[y_of(sq)][x_of(sq)]);
    if (colour >= 0 && colour < players) pos.cell[sq] = static_cast<std::uint8_t>(colour);
  }
  renumber(pos);
  return pos;
}

bool game_ended(const Position& pos) {
  int dead = 0;
  bool all_two = true;
  for (int s = 0; s < pos.players; ++s) {
    if (pos.count[s] == 0) ++dead;
    if (pos.count[s] != 2) all_two = false;
  }
  if (dead >= pos.players - 1) return true;
  return pos.players - dead == 2 && all_two;
}

bool centre_open(const Position& pos) {
  for (int d = 0; d < kDirections; ++d) {
    if (pos.cell[neighbour(kCentre, d)] == kEmpty) return true;
  }
  return false;
}

namespace {

bool has_own_neighbour(const Position& pos, int square, int colour) {
  for (int d = 0; d < kDirections; ++d) {
    const int n = neighbour(square, d);
    if (n >= 0 && pos.cell[n] == colour) return true;
  }
  return false;
}

}  // namespace

bool can_eat_soon(const Position& pos, int colour) {
  // Computed lazily: clause (b) needs "an own pawn adjacent to the centre" and an open centre.
  int own_by_centre = -1;
  for (int p = 0; p < kSquares; ++p) {
    if (pos.cell[p] != colour) continue;
    for (int d = 0; d < kDirections; ++d) {
      const int s = neighbour(p, d);
      if (s < 0 || pos.cell[s] >= kMaxColours || pos.cell[s] == colour) continue;
      const int t = beyond(p, d);
      // T empty: no pawn. Unplayable cells hold no pawn, so a decorative T counts (TV-14).
      if (t < 0 || t == kCentre || pos.cell[t] < kMaxColours) continue;
      if (has_own_neighbour(pos, t, colour)) return true;
      if (adjacent(t, kCentre) && centre_open(pos)) {
        if (own_by_centre < 0) own_by_centre = has_own_neighbour(pos, kCentre, colour) ? 1 : 0;
        if (own_by_centre == 1) return true;
      }
    }
  }
  return false;
}

int winner(const Position& pos) {
  int found = -1;
  for (int s = 0; s < pos.players; ++s) {
    if (pos.count[s] < 2) continue;
    if (found >= 0) return -1;
    found = s;
  }
  return found;
}

bool board_empty(const Position& pos) {
  for (int s = 0; s < pos.players; ++s) {
    if (pos.count[s] > 0) return false;
  }
  return true;
}

int next_seat(const Position& pos, int seat) {
  for (int i = 1; i <= pos.players; ++i) {
    const int s = (seat + i) % pos.players;
    if (pos.count[s] > 0) return s;
  }
  return (seat + 1) % pos.players;
}

int destinations(const Position& pos, int from, std::array<std::uint8_t, 8>& out) {
  const int colour = pos.cell[from];
  const std::uint8_t jumps = jump_directions(pos.players, colour);
  int n = 0;
  int open = -1;  // centre openness, computed on first need
  for (int d = 0; d < kDirections; ++d) {
    const int nb = neighbour(from, d);
    if (nb < 0) continue;
    const std::uint8_t c = pos.cell[nb];
    if (c == kWall) continue;
    if (c == kEmpty) {
      if (nb == kCentre) {
        if (open < 0) open = centre_open(pos) ? 1 : 0;
        if (open == 0) continue;
      }
      out[n++] = static_cast<std::uint8_t>(nb);
      continue;
    }
    if (from == kCentre || !(jumps & (1u << d))) continue;
    const int landing = beyond(from, d);
    if (landing < 0 || landing == kCentre || pos.cell[landing] != kEmpty) continue;
    out[n++] = static_cast<std::uint8_t>(landing);
  }
  return n;
}

bool has_legal_move(const Position& pos, int colour) {
  std::array<std::uint8_t, 8> dest;
  for (int sq = 0; sq < kSquares; ++sq) {
    if (pos.cell[sq] == colour && destinations(pos, sq, dest) > 0) return true;
  }
  return false;
}

namespace {

// Empty neighbours of the centre other than `origin`, ascending.
int centre_exits(const Position& pos, int origin, std::array<std::uint8_t, 8>& out) {
  int n = 0;
  for (int d = 0; d < kDirections; ++d) {
    const int nb = neighbour(kCentre, d);
    if (nb != origin && pos.cell[nb] == kEmpty) out[n++] = static_cast<std::uint8_t>(nb);
  }
  return n;
}

void move_pawn(Position& pos, int from, int to) {
  pos.cell[to] = pos.cell[from];
  pos.pawn_id[to] = pos.pawn_id[from];
  pos.cell[from] = kEmpty;
  pos.pawn_id[from] = kNoPawn;
}

}  // namespace

std::vector<std::vector<int>> move_bodies(const Position& pos, int colour) {
  std::vector<std::vector<int>> out;
  std::array<std::uint8_t, 8> dest, exits;
  for (int x = 0; x < kSize; ++x) {
    for (int y = 0; y < kSize; ++y) {
      const int from = square_of(x, y);
      if (pos.cell[from] != colour) continue;
      const int n = destinations(pos, from, dest);
      for (int i = 0; i < n; ++i) {
        if (dest[i] != kCentre) {
          out.push_back({from, dest[i]});
          continue;
        }
        Position walk = pos;
        move_pawn(walk, from, kCentre);
        const int e = centre_exits(walk, from, exits);
        for (int j = 0; j < e; ++j) out.push_back({from, kCentre, exits[j]});
      }
    }
  }
  return out;
}

std::vector<int> pawns_in_order(const Position& pos, int colour) {
  std::vector<int> squares;
  for (int sq = 0; sq < kSquares; ++sq) {
    if (pos.cell[sq] == colour) squares.push_back(sq);
  }
  std::sort(squares.begin(), squares.end(),
            [&pos](int a, int b) { return pos.pawn_id[a] < pos.pawn_id[b]; });
  return squares;
}

// ---------------------------------------------------------------------------------------------
// Turn

Turn::Turn(const Position& pos, bool pass_when_stuck, TurnLog* log)
    : pos_(pos),
      log_(log),
      seat_(static_cast<std::int8_t>(pos.to_move)),
      pass_when_stuck_(pass_when_stuck) {
  start_captures();
}

Turn::Turn(const Position& pos, bool pass_when_stuck, FirstChoice)
    : pos_(pos), seat_(static_cast<std::int8_t>(pos.to_move)), pass_when_stuck_(pass_when_stuck) {}

Turn Turn::at_first_choice(const Position& pos, bool pass_when_stuck) {
  return Turn(pos, pass_when_stuck, FirstChoice{});
}

void Turn::start_captures() {
  // while CAPTURE(p) > 0: REPLACE(p) — the first pass scans every pawn of p.
  in_move_ = false;
  if (capture(/*full_scan=*/true) > 0) {
    captured_at_start_ = true;
    token_.push_back(kCodeX);
    refill_loop();
    return;
  }
  after_start_captures();
}

void Turn::after_start_captures() {
  const int p = seat_;
  if (pos_.count[p] == 0) return finish();
  if (pos_.count[p] <= 2) {
    const bool survives = can_eat_soon(pos_, p);
    if (log_) log_->elimination_test = survives ? 1 : 0;
    if (!survives) {
      for (int sq = 0; sq < kSquares; ++sq) {
        if (pos_.cell[sq] == p) {
          pos_.cell[sq] = kEmpty;
          pos_.pawn_id[sq] = kNoPawn;
        }
      }
      pos_.count[p] = 0;
      token_.push_back(captured_at_start_ ? kCodePlusOut : kCodeOut);
      return finish();
    }
  }
  if (captured_at_start_) return finish();
  if (!has_legal_move(pos_, p)) {
    if (!pass_when_stuck_) {
      phase_ = Phase::kStuck;
      return;
    }
    token_.push_back(kCodePass);
    return finish();
  }
  phase_ = Phase::kSelect;
}

int Turn::capture(bool full_scan) {
  // CAPTURE(p) of §4.1. Every sandwich P–S–T is found first, then all are removed together.
  // After the first scan of a turn no sandwich of p remains, and only a pawn arriving on a
  // square (the move's destination, a refill) can form a new one, as one of its flankers:
  // later scans look at those squares only.
  if (game_ended(pos_)) return 0;
  const int p = seat_;
  std::array<std::uint8_t, kSquares> victims;
  int n = 0;
  auto scan = [&](int flanker) {
    for (unsigned m = sandwich_directions(pos_.cell, flanker, p); m != 0; m &= m - 1) {
      const int d = __builtin_ctz(m);
      const int s = neighbour(flanker, d);
      const int t = beyond(flanker, d);
      if (targets_[flanker] == 0) flankers_[flanker_count_++] = static_cast<std::uint8_t>(flanker);
      if (targets_[t] == 0) flankers_[flanker_count_++] = static_cast<std::uint8_t>(t);
      targets_[flanker] |= static_cast<std::uint8_t>(1u << d);
      targets_[t] |= static_cast<std::uint8_t>(1u << opposite(d));
      if (std::find(victims.begin(), victims.begin() + n, s) == victims.begin() + n) {
        victims[n++] = static_cast<std::uint8_t>(s);
      }
    }
  };
  flanker_count_ = 0;  // every target was cleared when the last batch was done
  if (full_scan) {
    for (int sq = 0; sq < kSquares; ++sq) {
      if (pos_.cell[sq] == p) scan(sq);
    }
  } else {
    for (int i = 0; i < fresh_count_; ++i) scan(fresh_[i]);
  }
  fresh_count_ = 0;
  if (n == 0) return 0;
  if (n > 1) std::sort(victims.begin(), victims.begin() + n);
  if (flanker_count_ > 1) std::sort(flankers_.begin(), flankers_.begin() + flanker_count_);
  if (log_) log_->batches.emplace_back();
  for (int i = 0; i < n; ++i) {
    const int s = victims[i];
    if (log_) {
      log_->batches.back().push_back(s);
      log_->batch_colours.push_back(pos_.cell[s]);
    }
    --pos_.count[pos_.cell[s]];
    pos_.cell[s] = kEmpty;
    pos_.pawn_id[s] = kNoPawn;
  }
  return n;
}

bool Turn::pending(int square) const {
  const std::uint8_t mask = targets_[square];
  if (mask == 0 || pos_.cell[square] != seat_) return false;
  for (int d = 0; d < kDirections; ++d) {
    if ((mask & (1u << d)) && pos_.cell[neighbour(square, d)] == kEmpty) return true;
  }
  return false;
}

void Turn::refill_loop() {
  // REPLACE(p) of §4.2/§5.3: stop when p has no pawn, the game has ended, or nothing is pending.
  if (pos_.count[seat_] > 0 && !game_ended(pos_)) {
    for (int i = 0; i < flanker_count_; ++i) {
      if (pending(flankers_[i])) {
        phase_ = Phase::kRefillFrom;
        selected_ = -1;
        return;
      }
    }
  }
  for (int i = 0; i < flanker_count_; ++i) targets_[flankers_[i]] = 0;
  flanker_count_ = 0;
  capture_then_refill();
}

void Turn::capture_then_refill() {
  if (capture(/*full_scan=*/false) > 0) return refill_loop();
  if (in_move_) return finish();
  after_start_captures();
}

void Turn::finish() {
  phase_ = Phase::kDone;
  selected_ = origin_ = -1;
  pos_.to_move = next_seat(pos_, seat_);
}

int Turn::choices(std::array<std::uint8_t, kSquares>& out) const {
  int n = 0;
  std::array<std::uint8_t, 8> dest;
  switch (phase_) {
    case Phase::kSelect:
      for (int sq = 0; sq < kSquares; ++sq) {
        if (pos_.cell[sq] == seat_ && destinations(pos_, sq, dest) > 0) {
          out[n++] = static_cast<std::uint8_t>(sq);
        }
      }
      return n;
    case Phase::kDestination: {
      const int k = destinations(pos_, selected_, dest);
      std::copy(dest.begin(), dest.begin() + k, out.begin());
      std::sort(out.begin(), out.begin() + k);
      return k;
    }
    case Phase::kCentreExit: {
      const int k = centre_exits(pos_, origin_, dest);
      std::copy(dest.begin(), dest.begin() + k, out.begin());
      return k;
    }
    case Phase::kRefillFrom:
      for (int i = 0; i < flanker_count_; ++i) {
        if (pending(flankers_[i])) out[n++] = flankers_[i];
      }
      return n;
    case Phase::kRefillTo:
      for (int d = 0; d < kDirections; ++d) {
        const int g = neighbour(selected_, d);
        if ((targets_[selected_] & (1u << d)) && pos_.cell[g] == kEmpty) {
          out[n++] = static_cast<std::uint8_t>(g);
        }
      }
      std::sort(out.begin(), out.begin() + n);
      return n;
    case Phase::kStuck:
    case Phase::kDone:
      return 0;
  }
  return 0;
}

bool Turn::is_target(int from, int to) const {
  if (from < 0 || from >= kSquares || to < 0 || to >= kSquares) return false;
  std::array<std::uint8_t, 8> dest;
  if (phase_ == Phase::kSelect) {
    if (pos_.cell[from] != seat_) return false;
    const int k = destinations(pos_, from, dest);
    return std::find(dest.begin(), dest.begin() + k, to) != dest.begin() + k;
  }
  if (phase_ == Phase::kRefillFrom) {
    if (!pending(from) || pos_.cell[to] != kEmpty) return false;
    for (int d = 0; d < kDirections; ++d) {
      if ((targets_[from] & (1u << d)) && neighbour(from, d) == to) return true;
    }
  }
  return false;
}

bool Turn::accepts(int square) const {
  if (square < 0 || square >= kSquares) return false;
  switch (phase_) {
    case Phase::kSelect: {
      std::array<std::uint8_t, 8> dest;
      return pos_.cell[square] == seat_ && destinations(pos_, square, dest) > 0;
    }
    case Phase::kDestination: {
      std::array<std::uint8_t, 8> dest;
      const int k = destinations(pos_, selected_, dest);
      return std::find(dest.begin(), dest.begin() + k, square) != dest.begin() + k;
    }
    case Phase::kCentreExit:
      return square != origin_ && adjacent(square, kCentre) && pos_.cell[square] == kEmpty;
    case Phase::kRefillFrom:
      return pending(square);
    case Phase::kRefillTo: {
      if (pos_.cell[square] != kEmpty) return false;
      for (int d = 0; d < kDirections; ++d) {
        if ((targets_[selected_] & (1u << d)) && neighbour(selected_, d) == square) return true;
      }
      return false;
    }
    case Phase::kStuck:
    case Phase::kDone:
      return false;
  }
  return false;
}

void Turn::choose(int square) {
  token_.push_back(static_cast<Move::Code>(square));
  switch (phase_) {
    case Phase::kSelect:
      selected_ = static_cast<std::int8_t>(square);
      phase_ = Phase::kDestination;
      return;
    case Phase::kDestination:
      move_pawn(pos_, selected_, square);
      if (square == kCentre) {
        origin_ = selected_;
        selected_ = kCentre;
        phase_ = Phase::kCentreExit;
        return;
      }
      break;
    case Phase::kCentreExit:
      move_pawn(pos_, kCentre, square);
      break;
    case Phase::kRefillFrom:
      selected_ = static_cast<std::int8_t>(square);
      phase_ = Phase::kRefillTo;
      return;
    case Phase::kRefillTo: {
      // The refilling pawn loses its other targets; the filled square leaves every other list.
      move_pawn(pos_, selected_, square);
      targets_[selected_] = 0;
      for (int d = 0; d < kDirections; ++d) {
        const int n = neighbour(square, d);
        if (n >= 0) targets_[n] &= static_cast<std::uint8_t>(~(1u << opposite(d)));
      }
      fresh_[fresh_count_++] = static_cast<std::uint8_t>(square);
      selected_ = -1;
      return refill_loop();
    }
    case Phase::kStuck:
    case Phase::kDone:
      return;
  }
  // The move is made: CAPTURE/REPLACE until nothing more is taken, then the turn ends.
  in_move_ = true;
  selected_ = origin_ = -1;
  fresh_[0] = static_cast<std::uint8_t>(square);
  fresh_count_ = 1;
  capture_then_refill();
}

}  // namespace plateau::biloba
