#pragma once
// Biloba rules, ruleset `classic` (specs/biloba.md §2–§6): the position, the candidate lists of
// §3.1, CAPTURE and REPLACE (§4), the end-of-game test (§6.1), canEatSoon (§6.2), and `Turn`,
// the turn of §5.2 at the level of *accepted* choices: every square it is fed is one the
// original would act on (ignored and deselecting clicks are the click machine's business,
// biloba_clicks.h). A full turn is recorded as a Move (core) whose codes are the squares chosen
// in order plus the markers below; biloba_notation.h writes it as a §7.2 turn token.
#include <array>
#include <cstdint>
#include <vector>

#include "core/move.h"
#include "games/biloba/biloba_board.h"

namespace plateau::biloba {

// Cell contents: a colour 0..3, empty, or unplayable.
inline constexpr std::uint8_t kEmpty = 4;
inline constexpr std::uint8_t kWall = 5;
inline constexpr std::uint8_t kNoPawn = 0xFF;

// Move codes: squares 0..80 in the order they are chosen, and these markers (§7.2).
inline constexpr Move::Code kCodeX = 100;        // "x": forced captures at turn start, no move
inline constexpr Move::Code kCodeOut = 101;      // "out": eliminated at turn start
inline constexpr Move::Code kCodePlusOut = 102;  // "+out": eliminated after forced captures
inline constexpr Move::Code kCodePass = 103;     // "pass": no legal move (Plateau only, §3.4)

// Directions d in which a pawn of `colour` on `square` of `cell` flanks a sandwich (§4.1): an
// enemy pawn on the neighbour S and a pawn of `colour` on the square T beyond it, T not the
// centre. Branch-free over the 8 lines (the capture scans are the rules' innermost loop).
inline std::uint8_t sandwich_directions(const std::array<std::uint8_t, kSquares>& cell, int square,
                                        int colour) {
  const auto& ls = detail::kBoard.line_s[square];
  const auto& lt = detail::kBoard.line_t[square];
  unsigned mask = 0;
  for (int d = 0; d < kDirections; ++d) {
    const unsigned s = cell[ls[d]], t = cell[lt[d]];
    const unsigned hit = (s < kMaxColours) & (s != static_cast<unsigned>(colour)) &
                         (t == static_cast<unsigned>(colour));
    mask |= hit << d;
  }
  return static_cast<std::uint8_t>(mask);
}

struct Position {
  std::array<std::uint8_t, kSquares> cell{};  // colour, kEmpty or kWall
  // Pawn identity (§2.4): number of the pawn on each square within its colour (kNoPawn where
  // there is none). Only tie-breaks of the classic bot look at it, so it is not part of the
  // position's value (operator==, hash, position string); a parsed position renumbers.
  std::array<std::uint8_t, kSquares> pawn_id{};
  std::array<std::uint8_t, kMaxColours> count{};  // pawns per colour
  int players = 2;
  int to_move = 0;  // seat whose turn it is (or would be, once the game has ended)
  int turns = 0;    // turns played, counted only when a turn cap is set (biloba_game.h)

  friend bool operator==(const Position& a, const Position& b) {
    return a.cell == b.cell && a.players == b.players && a.to_move == b.to_move &&
           a.turns == b.turns;
  }
};

// The start position of §2.2 for 2, 3 or 4 players, orange to move, pawns numbered in scan order.
Position start_position(int players);
// An empty board for `players` (walls placed, no pawns, orange to move).
Position empty_position(int players);
// Recounts pawns and renumbers them in scan order (§2.4) after cells were edited by hand.
void renumber(Position& pos);

// §6.1: at most one seat has pawns, or (only possible with 2 players) every seat has exactly 2.
bool game_ended(const Position& pos);
// §3.3: the centre is open iff one of its 8 neighbours is empty.
bool centre_open(const Position& pos);
// §6.2, with the original's quirks (decorative cells count as empty T, Q may be P in clause b).
bool can_eat_soon(const Position& pos, int colour);
// §6.3, for a game that has ended: the unique seat with ≥ 2 pawns, or -1 (the result is then
// "Draw", or no result at all when every pawn is gone).
int winner(const Position& pos);
// True when no seat has a pawn (§6.3: no result message).
bool board_empty(const Position& pos);
// The seat after `seat` that has pawns (wrapping), or seat + 1 when nobody has pawns.
int next_seat(const Position& pos, int seat);

// Legal destinations of the pawn on `from` (not the centre) in candidate order (§3.1): steps,
// the centre when open, and jumps that are not backwards for its colour. Returns the count.
int destinations(const Position& pos, int from, std::array<std::uint8_t, 8>& out);
// True when some pawn of `colour` has a legal destination (§3.4).
bool has_legal_move(const Position& pos, int colour);
// The move bodies of §3.1 for `colour` on `pos`, ignoring whether the turn would start with
// captures or an elimination: {from, to} and centre walks {from, kCentre, exit}, pawns in scan
// order. (The golden records' `legal_moves` / `probe` lists.)
std::vector<std::vector<int>> move_bodies(const Position& pos, int colour);
// The squares of `colour`'s pawns in pawn order (§2.4).
std::vector<int> pawns_in_order(const Position& pos, int colour);

// What happened inside a turn, for tests and golden replays (not needed to play).
struct TurnLog {
  std::vector<std::vector<int>> batches;  // squares removed together, one list per CAPTURE
  std::vector<int> batch_colours;         // colour removed, per square, flattened in order
  int elimination_test = -1;              // -1 not run (≥ 3 pawns), 0 eliminated, 1 survived
};

// One turn of the seat to move (§5.2) driven by accepted choices.
class Turn {
 public:
  enum class Phase : std::uint8_t {
    kSelect,       // choose an own pawn that has a destination
    kDestination,  // choose a destination of the selected pawn
    kCentreExit,   // the pawn stands on e5: choose an exit
    kRefillFrom,   // choose a pending flanker
    kRefillTo,     // choose one of its empty targets
    kStuck,        // no legal move and no_legal_move = wait: nothing is ever accepted
    kDone,         // the turn is over; position() has the next seat to move
  };

  // Starts the turn of pos.to_move, which must have pawns and the game must not have ended:
  // forced captures (with their refill choices, if any), the elimination test and the
  // no-legal-move check run at once (§5.2). `pass_when_stuck` selects §3.4 (true: pass) or
  // the original's wait. `log` (optional) receives captures and the elimination test.
  Turn(const Position& pos, bool pass_when_stuck, TurnLog* log = nullptr);
  // The same turn when its start is known to be plain: nothing sandwiched, no elimination, and
  // the seat has a legal move (the checks of §5.2 passed, as the fast generator of
  // biloba_movegen.h knows). Skips those checks and starts at kSelect.
  static Turn at_first_choice(const Position& pos, bool pass_when_stuck);

  Phase phase() const { return phase_; }
  bool done() const { return phase_ == Phase::kDone; }
  // The squares accepted now, ascending (empty in kStuck and kDone).
  int choices(std::array<std::uint8_t, kSquares>& out) const;
  bool accepts(int square) const;
  // Feeds an accepted square (precondition: accepts(square)) and runs everything that follows
  // without a choice: captures, chains, the end of the turn.
  void choose(int square);

  // For click interfaces: is `to` a destination of the pawn on `from` (kSelect), or an empty
  // refill target of the pending pawn on `from` (kRefillFrom)?
  bool is_target(int from, int to) const;

  // The board now (a pawn may stand on the centre during kCentreExit).
  const Position& position() const { return pos_; }
  // The codes of the turn so far; the full turn once done().
  const Move& token() const { return token_; }
  int seat() const { return seat_; }
  // The selected pawn (kDestination, kRefillTo), the centre (kCentreExit), else -1.
  int selected() const { return selected_; }
  // The square the walking pawn came from (kCentreExit), else -1.
  int origin() const { return origin_; }
  bool captured_at_start() const { return captured_at_start_; }

 private:
  struct FirstChoice {};
  Turn(const Position& pos, bool pass_when_stuck, FirstChoice);
  void start_captures();
  void after_start_captures();
  void capture_then_refill();  // CAPTURE(p) > 0 → REPLACE(p), repeated; then continue
  int capture(bool full_scan);
  void refill_loop();
  void finish();
  bool pending(int square) const;

  Position pos_;
  TurnLog* log_ = nullptr;
  Move token_;
  std::array<std::uint8_t, kSquares> targets_{};  // refill targets: bit d = square + dir d
  // Squares where a pawn of p arrived since the last CAPTURE (a batch refills at most one square
  // per pawn, and a colour has at most 16 pawns).
  std::array<std::uint8_t, 32> fresh_{};
  std::uint8_t fresh_count_ = 0;
  // The squares given targets by the last CAPTURE, ascending (a colour has at most 16 pawns):
  // the only candidates for a pending pawn, so REPLACE never scans the board.
  std::array<std::uint8_t, 32> flankers_{};
  std::uint8_t flanker_count_ = 0;
  Phase phase_ = Phase::kSelect;
  std::int8_t seat_ = 0;
  std::int8_t selected_ = -1;
  std::int8_t origin_ = -1;
  bool pass_when_stuck_ = true;
  bool captured_at_start_ = false;
  bool in_move_ = false;  // captures after the move (true) or at turn start (false)
};

// Calls `visit(const Turn&)` once for every complete turn of pos.to_move (every move × every
// refill choice sequence), in choice order (squares ascending at each choice).
template <class Visit>
void for_each_turn(const Turn& turn, Visit&& visit) {
  if (turn.done()) {
    visit(turn);
    return;
  }
  std::array<std::uint8_t, kSquares> options;
  const int n = turn.choices(options);
  for (int i = 0; i < n; ++i) {
    Turn next = turn;
    next.choose(options[i]);
    for_each_turn(next, visit);
  }
}

// The choice accounting of a bounded turn walk (for_each_turn_bounded): counts one per choice
// made and, once `*visited` reaches `budget` or `stop()` returns true (polled every 1024
// choices), tries no further alternative at any choice; the first alternative at each choice is
// always followed. Shared by for_each_turn_bounded and the fast generator (biloba_movegen.h),
// so that both spend and stop exactly alike.
template <class Stop>
class BoundedChoices {
 public:
  BoundedChoices(std::uint64_t budget, std::uint64_t* visited, const Stop& stop)
      : budget_(budget), visited_(visited), stop_(stop) {}

  // Called before following alternative i (0-based) of a choice: false = stop trying them.
  bool next(int i) {
    if (i > 0 && (halted_ || *visited_ >= budget_)) {
      halted_ = true;
      return false;
    }
    if (++*visited_ % 1024 == 0 && stop_()) halted_ = true;
    return true;
  }
  // Walks the complete turns that follow `turn`, calling visit(const Turn&) for each.
  template <class Visit>
  void walk(const Turn& turn, Visit& visit) {
    if (turn.done()) {
      visit(turn);
      return;
    }
    std::array<std::uint8_t, kSquares> options;
    const int n = turn.choices(options);
    for (int i = 0; i < n; ++i) {
      if (!next(i)) return;
      Turn t = turn;
      t.choose(options[i]);
      walk(t, visit);
    }
  }
  bool halted() const { return halted_; }

 private:
  std::uint64_t budget_;
  std::uint64_t* visited_;
  const Stop& stop_;
  bool halted_ = false;
};

// Choice accounting for an unbounded walk: every alternative is followed.
struct AllChoices {
  static constexpr bool next(int) { return true; }
  template <class Visit>
  static void walk(const Turn& turn, Visit& visit) {
    for_each_turn(turn, visit);
  }
  static constexpr bool halted() { return false; }
};

// for_each_turn within a budget (BoundedChoices). Returns true if it stopped early.
// (A capture of k pawns lets the refills come in k! orders: the full walk can be huge.)
template <class Visit, class Stop>
bool for_each_turn_bounded(const Turn& turn, Visit&& visit, std::uint64_t budget,
                           std::uint64_t* visited, const Stop& stop) {
  BoundedChoices<Stop> choices(budget, visited, stop);
  choices.walk(turn, visit);
  return choices.halted();
}

}  // namespace plateau::biloba
