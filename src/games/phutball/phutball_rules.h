#pragma once
// Phutball rules on a plain position value (specs/phutball.md, ruleset `pbmserv` and its
// options). No text and no allocation on the hot paths: the game adapter (phutball_game.h), the
// notation, the print-out and the bots all build on these functions.
//
// Geometry (§1): a mailbox of kWidth columns × (rows + 2) lines. Cell index
// = line * kWidth + (column + 1), where column 0..14 is A..P (no I) and line 0 is the off-board
// row beyond row 1; line rows+1 is the off-board row beyond the top line. Columns -1 and 15 are
// walls, except on the two off-board rows where they are the corner cells of `corner_exit`
// (§3.5, written `@` and `Q`). Men only ever stand on on-board points (lines 1..rows, columns
// 0..14), so a walk over men from any point always stays inside the mailbox.
#include <array>
#include <cstdint>
#include <vector>

namespace plateau::phutball {

inline constexpr int kColumns = 15;          // A..P without I
inline constexpr int kWidth = kColumns + 2;  // with the wall / corner column on each side
inline constexpr int kMaxRows = 20;          // 20 on a half-point handicap board (§2.3)
inline constexpr int kCells = kWidth * (kMaxRows + 2);
inline constexpr int kOhs = 0;  // seat 0, moves first, attacks the top (§2.1)
inline constexpr int kEks = 1;  // seat 1, attacks the bottom

constexpr int cell_of(int column, int row) { return row * kWidth + column + 1; }
constexpr int column_of(int cell) { return cell % kWidth - 1; }
constexpr int row_of(int cell) { return cell / kWidth; }

// The eight hop directions N, NE, E, SE, S, SW, W, NW as cell offsets (§3.2).
inline constexpr std::array<int, 8> kDirections = {kWidth,  kWidth + 1,  1,  -kWidth + 1,
                                                   -kWidth, -kWidth - 1, -1, kWidth - 1};

enum class Repetition : std::uint8_t { kNone, kDrawOnThreefold, kSuperko };

// What a hop may land on (§3.2 step 3).
enum class Landing : std::uint8_t {
  kNone,    // wall: a hop landing here is illegal (off the side)
  kPoint,   // on-board point: the move may go on
  kBeyond,  // off-board row (or an enabled corner cell): the move ends there
};

// The rules switches of §11, with the board they imply.
struct Rules {
  int handicap_halves = 0;                    // 2 × handicap N, |N| ≤ 8.5 (§2.3)
  int rows = 19;                              // 19, or 20 for a half-point handicap
  int start_row = 10;                         // the ball's start row
  bool own_goal_illegal = false;              // own_goal = illegal (§6.2)
  bool corner_exit = false;                   // §3.5
  Repetition repetition = Repetition::kNone;  // §6.4
  int ply_cap = 0;                            // 0 = none
  bool lenient_path = false;                  // §8.3
  std::array<Landing, kCells> landing{};      // per cell, from rows and corner_exit
  std::vector<std::int16_t> points;           // on-board cells in index order (rows 1..rows)
  std::vector<std::int16_t> points_by_name;   // the same, sorted by their names ("A1", "A10", ...)
};

// Rules for handicap `handicap_halves` / 2 and the other switches; fills the board tables.
// Requires |handicap_halves| ≤ 17 (the option layer checks and names the error).
Rules make_rules(int handicap_halves, bool own_goal_illegal, bool corner_exit,
                 Repetition repetition, int ply_cap, bool lenient_path);

// Only handicaps 0 and +0.5 are rated (§2.3).
bool is_rated(const Rules& rules);

// Zobrist keys of the position hash (fixed seed, stable across builds).
std::uint64_t man_key(int cell);
std::uint64_t ball_key(int cell);
std::uint64_t side_key();

struct Position {
  std::array<std::uint8_t, kCells> men{};  // 1 where a man stands
  std::int16_t ball = 0;                   // cell of the ball (may be off board at the end)
  std::int16_t men_count = 0;
  std::int8_t to_move = kOhs;  // the side to move (or that would move, once over)
  std::uint64_t key = 0;       // Zobrist of men, ball and side to move
  friend bool operator==(const Position& a, const Position& b) {
    return a.ball == b.ball && a.to_move == b.to_move && a.men == b.men;
  }
};

// Recomputes men_count and key from men, ball and to_move.
void refresh(Position& pos);

// The start position (§2.2): no men, ball on the (handicap) start point, Ohs to move.
Position start_position(const Rules& rules);

// True when `cell` is an on-board point (rows 1..rows, columns A..P).
inline bool on_board(const Rules& rules, int cell) {
  return cell >= 0 && cell < kCells && rules.landing[cell] == Landing::kPoint;
}

enum class Outcome : std::uint8_t { kNone, kOhsWins, kEksWins, kDraw };

// The result decided by the ball's point alone (§6.1): row ≥ rows → Ohs, row ≤ 1 → Eks.
Outcome ball_outcome(const Rules& rules, int ball);

// Whether a move by `mover` ending with the ball on `ball` is an own goal (§6.2): on or beyond
// the mover's home line.
bool is_own_goal(const Rules& rules, int mover, int ball);

// Why a hop is not legal (§7 item 2), in the order the checks are made.
enum class HopError : std::uint8_t {
  kNone,
  kStartsOffBoard,  // the ball already left the board
  kZeroLength,      // to == from
  kNotStraight,     // not along one of the eight directions
  kAdjacent,        // one point away: nothing can be jumped
  kPassesEmpty,     // a point strictly between is empty (`at` names it)
  kLandsOnMan,      // the landing point holds a man
  kOffSide,         // the landing point is beyond a side edge (or a disabled corner)
};

struct HopCheck {
  HopError error = HopError::kNone;
  int at = -1;  // the empty point passed (kPassesEmpty)
};

// Checks the hop from the ball to cell `to` (any mailbox cell) on `pos`, without changing it.
HopCheck check_hop(const Rules& rules, const Position& pos, int to);

// Makes a hop that check_hop accepted: removes the men passed, moves the ball (key updated; the
// side to move is unchanged).
void make_hop(Position& pos, int to);

// Applies a whole move given as codes: one cell (a placement), or the ball's cell followed by
// the landing cells. The move must be legal. Switches the side to move.
void apply_move(Position& pos, const std::uint16_t* codes, std::size_t size);

// The landing of the hop from `from` in direction `d` on `men`, or -1 if there is no man to jump
// or the landing is a wall.
inline int hop_landing(const Rules& rules, const std::array<std::uint8_t, kCells>& men, int from,
                       int d) {
  int c = from + d;
  if (!men[c]) return -1;
  do c += d;
  while (men[c]);
  return rules.landing[c] == Landing::kNone ? -1 : c;
}

}  // namespace plateau::phutball
