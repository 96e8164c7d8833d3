// Text and step input of a Phutball state (specs/phutball.md §7, §8): validation that is linear
// in the path length, with the precise reasons of §8.4.
#include <algorithm>
#include <charconv>

#include "core/error.h"
#include "core/text.h"
#include "games/phutball/phutball_game.h"
#include "games/phutball/phutball_jumps.h"
#include "games/phutball/phutball_notation.h"

namespace plateau::phutball {

namespace {

const char* side_name(int side) { return side == kOhs ? "Ohs" : "Eks"; }

std::string path_text(const std::vector<int>& cells) {
  std::string out;
  for (int c : cells) out += (out.empty() ? "" : "-") + point_name(c);
  return out;
}

// The reason a hop from `from` to `to` is rejected, as §8.4 names it.
std::string hop_message(const Rules& rules, HopCheck check, int from, int to) {
  const std::string hop = point_name(from) + "-" + point_name(to);
  switch (check.error) {
    case HopError::kStartsOffBoard:
      return "hop starts off the board: " + hop + " (the ball left the board at " +
             point_name(from) + ")";
    case HopError::kZeroLength:
      return "hop too short: " + hop + " has zero length";
    case HopError::kNotStraight:
      return "not a straight line: " + hop;
    case HopError::kAdjacent:
      return "hop too short: " + hop + " goes to an adjacent point, with no man between";
    case HopError::kPassesEmpty:
      return "hop passes an empty point: " + hop + " passes " + point_name(check.at);
    case HopError::kLandsOnMan:
      return "landing point not empty: " + hop + " lands on the man on " + point_name(to);
    case HopError::kOffSide: {
      const int row = row_of(to);
      const bool corner = row == 0 || row == rules.rows + 1;
      return "lands off the side: " + hop + " leaves the board over a side edge" +
             (corner ? std::string(" (corner exits are off)") : std::string());
    }
    default:
      return "";
  }
}

// A non-negative decimal number, or -1.
long parse_count(std::string_view digits) {
  long value = -1;
  if (digits.empty() || digits.size() > 9) return -1;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (ec != std::errc() || end != digits.data() + digits.size()) return -1;
  return value;
}

}  // namespace

Move PhutballState::check_placement(int cell) const {
  const Rules& r = rules();
  const std::string name = point_name(cell);
  const int col = column_of(cell);
  if (col < 0 || col >= kColumns) {
    throw RuleError("bad coordinate '" + name + "': columns are A to P, without I");
  }
  const int row = row_of(cell);
  if (row < 1 || row > r.rows) {
    throw RuleError("bad coordinate '" + name + "': men are placed on rows 1 to " +
                    std::to_string(r.rows) + " only");
  }
  if (cell == pos_.ball) throw RuleError("point occupied: " + name + " holds the ball");
  if (pos_.men[cell]) throw RuleError("point occupied: " + name + " holds a man");
  if (recreates(pos_.key ^ man_key(cell) ^ side_key())) {
    throw RuleError("repetition: " + name + " recreates an earlier position (superko)");
  }
  return Move{static_cast<Move::Code>(cell)};
}

Move PhutballState::check_path(std::vector<int> cells, bool star) const {
  const Rules& r = rules();
  if (cells[0] != pos_.ball) {
    if (!r.lenient_path) {
      throw RuleError("path does not start at the ball: the ball is on " + point_name(pos_.ball) +
                      ", not " + point_name(cells[0]));
    }
    cells.insert(cells.begin(), pos_.ball);
  }
  Position scratch = pos_;
  for (std::size_t i = 1; i < cells.size(); ++i) {
    const HopCheck check = check_hop(r, scratch, cells[i]);
    if (check.error != HopError::kNone) {
      throw RuleError(hop_message(r, check, scratch.ball, cells[i]));
    }
    make_hop(scratch, cells[i]);
  }
  if (star) {
    // §8.3: "*" is the one hop off the board over the mover's target line.
    const int target_row = pos_.to_move == kOhs ? r.rows + 1 : 0;
    int found = -1, count = 0;
    if (on_board(r, scratch.ball)) {
      for (int d : kDirections) {
        const int to = hop_landing(r, scratch.men, scratch.ball, d);
        if (to >= 0 && row_of(to) == target_row) {
          found = to;
          ++count;
        }
      }
    }
    if (count != 1) {
      throw RuleError("'*' needs exactly one hop off the board over " +
                      std::string(side_name(pos_.to_move)) + "'s target line from " +
                      point_name(scratch.ball) + "; there " +
                      (count == 0 ? std::string("is none") : "are " + std::to_string(count)));
    }
    make_hop(scratch, found);
    cells.push_back(found);
  }
  if (cells.size() < 2) {
    throw RuleError("a ball move needs at least one hop after the ball's point " +
                    point_name(pos_.ball));
  }
  if (r.own_goal_illegal && is_own_goal(r, pos_.to_move, scratch.ball)) {
    throw RuleError("own goal: " + path_text(cells) + " ends on or beyond " +
                    side_name(pos_.to_move) + "'s home line (own_goal=illegal)");
  }
  if (recreates(scratch.key ^ side_key())) {
    throw RuleError("repetition: " + path_text(cells) + " recreates an earlier position (superko)");
  }
  Move m;
  for (int c : cells) m.push_back(static_cast<Move::Code>(c));
  return m;
}

Move PhutballState::parse_move(std::string_view text) const {
  if (outcome_ != Outcome::kNone) throw RuleError("game over: the game has ended");
  std::string_view t = trim(text);
  const std::size_t hash = t.find('#');
  if (hash != std::string_view::npos) {
    const long n = parse_count(t.substr(hash + 1));
    if (n < 0) {
      throw RuleError("wrong move number: '" + std::string(t.substr(hash)) +
                      "' is not # followed by a move number");
    }
    if (n != ply_ + 1) {
      throw RuleError("wrong move number: Move " + std::to_string(ply_ + 1) +
                      " received as move #" + std::to_string(n));
    }
    t = trim(t.substr(0, hash));
  }
  if (t.empty()) {
    throw RuleError("empty move: expected a point such as H11 or a path such as H10-H13-L10");
  }
  std::string upper = to_upper(t);
  bool star = false;
  if (upper.back() == '*') {
    star = true;
    upper.pop_back();
    if (!upper.empty() && upper.back() == '-') upper.pop_back();
    if (upper.empty()) throw RuleError("empty path element: '*' needs the ball's point first");
  }
  std::vector<int> cells = parse_points(rules(), upper);
  if (cells.size() == 1 && !star) return check_placement(cells[0]);
  return check_path(std::move(cells), star);
}

StepChoices PhutballState::next_steps(const std::vector<std::string>& prefix) const {
  if (outcome_ != Outcome::kNone) throw RuleError("game over: the game has ended");
  const Rules& r = rules();
  auto ok = [this](int ball, std::uint64_t key) { return ending_ok(ball, key); };
  // The landings from `from` through which some legal move passes.
  auto landings = [&](const Position& from, std::vector<std::string>& out) {
    if (!on_board(r, from.ball)) return;
    for (int d : kDirections) {
      const int to = hop_landing(r, from.men, from.ball, d);
      if (to < 0) continue;
      Position child = from;
      make_hop(child, to);
      if (has_legal_ending(r, child, ok)) out.push_back(point_name(to));
    }
  };
  StepChoices choices;
  if (prefix.empty()) {
    std::vector<std::string> hops;
    landings(pos_, hops);
    // Cells in name order, so the list comes out sorted.
    choices.next.reserve(r.points.size());
    for (int cell : r.points_by_name) {
      if (cell == pos_.ball ? !hops.empty() : placement_ok(cell)) {
        choices.next.push_back(point_name(cell));
      }
    }
    return choices;
  }
  const int first = parse_point(r, trim(prefix[0]));
  if (first != pos_.ball) {
    check_placement(first);
    if (prefix.size() > 1) {
      throw RuleError("a placement is a single step: " + point_name(first) + " is not the ball");
    }
    choices.complete = true;
    return choices;
  }
  Position scratch = pos_;
  for (std::size_t i = 1; i < prefix.size(); ++i) {
    const int to = parse_point(r, trim(prefix[i]));
    const HopCheck check = check_hop(r, scratch, to);
    if (check.error != HopError::kNone) {
      throw RuleError(hop_message(r, check, scratch.ball, to));
    }
    make_hop(scratch, to);
  }
  landings(scratch, choices.next);
  choices.complete = prefix.size() >= 2 && ending_ok(scratch.ball, scratch.key);
  if (choices.next.empty() && !choices.complete) {
    throw RuleError(prefix.size() == 1
                        ? "the ball on " + point_name(pos_.ball) + " has no legal hop"
                        : "no legal move goes on from " + point_name(scratch.ball) +
                              " along these hops");
  }
  std::sort(choices.next.begin(), choices.next.end());
  return choices;
}

Move PhutballState::move_from_steps(const std::vector<std::string>& steps) const {
  if (outcome_ != Outcome::kNone) throw RuleError("game over: the game has ended");
  if (steps.empty()) throw RuleError("no steps: a move is a point, or the ball and its landings");
  std::vector<int> cells;
  for (const std::string& step : steps) cells.push_back(parse_point(rules(), trim(step)));
  if (cells.size() == 1 && cells[0] != pos_.ball) return check_placement(cells[0]);
  if (cells[0] != pos_.ball) {
    throw RuleError("path does not start at the ball: the ball is on " + point_name(pos_.ball) +
                    ", not " + point_name(cells[0]));
  }
  return check_path(std::move(cells), false);
}

}  // namespace plateau::phutball
