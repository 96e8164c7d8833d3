#pragma once
// BohnDuell rules on a plain position value (specs/bohnduell.md). No allocation, no text: the
// game adapter (bohnduell_game.h), the solver and the bots all build on these functions.
#include <array>
#include <cstdint>
#include <optional>

namespace plateau::bohnduell {

inline constexpr int kBowls = 4;    // distances 1..4 (§1)
inline constexpr int kMaxSupply = 63;  // keeps solver values in int8 (§9)

// Move codes (§11.1): 0..3 = S1..S4 (supply move into bowl k = code+1), 4..7 = H1..H4.
inline constexpr int kNumMoveCodes = 8;
constexpr bool is_supply(int code) { return code < 4; }
constexpr int bowl_of(int code) { return is_supply(code) ? code + 1 : code - 3; }
constexpr int supply_code(int k) { return k - 1; }
constexpr int harvest_code(int d) { return d + 3; }

// The option set of §9 that changes the rules (`start` is a table option, see game).
struct Rules {
  int supply = 20;                  // starting supply N per player
  bool short_supply_partial = false;  // short_supply = partial
  bool steal_any = false;           // steal_scope = any
  bool steal_on_harvest = false;
  bool sower_to_store = false;
  bool opposite_same = false;       // opposite = same (default mirror)
  bool leftovers_owner = false;
  bool extra_turn = false;
};

struct Side {
  std::array<std::uint8_t, kBowls + 1> bowl{};  // bowl[d], d = 1..4 (bowl[0] unused, always 0)
  std::uint8_t supply = 0;
  std::uint8_t store = 0;
  friend bool operator==(const Side&, const Side&) = default;
};

struct Position {
  std::array<Side, 2> side{};  // seat 0 = A, seat 1 = B
  std::int8_t to_move = 0;     // 0 or 1; meaningless once over
  bool over = false;
  friend bool operator==(const Position&, const Position&) = default;
};

// Start position of §2: empty bowls, N balls in each supply, seat A (0) to move.
Position start_position(const Rules& rules);

// The bowl of the opponent facing the mover's bowl at distance d (§1; option `opposite`).
constexpr int opposite_bowl(const Rules& rules, int d) { return rules.opposite_same ? d : 5 - d; }

// Whether move `code` is legal for `seat` on `pos` (ignores whose turn it is) (§3).
bool is_legal(const Rules& rules, const Position& pos, int seat, int code);
// hasLegalMove of §5.
bool has_legal_move(const Rules& rules, const Position& pos, int seat);
// Bit set of legal move codes for the side to move (bit i = code i); 0 when over.
unsigned legal_mask(const Rules& rules, const Position& pos);

// Applies legal move `code` for the side to move: the move, its steals (§4.1), then the turn
// rule of §5 (forced pass or end of game). Returns the balls stolen by this move.
int apply_move(const Rules& rules, Position& pos, int code);

// Decides whose turn it is after `mover` moved (§5): sets to_move or over.
void settle_turn(const Rules& rules, Position& pos, int mover, bool after_harvest);

// Final scores (§6): store, plus own bowls with leftovers = owner.
int score(const Rules& rules, const Position& pos, int seat);

}  // namespace plateau::bohnduell
