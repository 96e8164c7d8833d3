#include "games/phutball/phutball_game.h"

#include <algorithm>
#include <charconv>
#include <stdexcept>

#include "core/error.h"
#include "core/text.h"
#include "games/phutball/phutball_jumps.h"
#include "games/phutball/phutball_notation.h"

namespace plateau::phutball {

namespace {

constexpr int kMaxHandicapHalves = 17;  // |N| ≤ 8.5 (§2.3)
constexpr int kMaxPlyCap = 1000000;

OptionSpec handicap_option() {
  OptionSpec spec;
  spec.name = "handicap";
  spec.default_value = "0";
  spec.help =
      "rows the ball starts towards Eks's target (row 1); a half-point adds a row (20 rows)";
  spec.accepted = "a multiple of 0.5 from -8.5 to 8.5";
  spec.type = OptionType::kDecimal;
  spec.min = -8.5;
  spec.max = 8.5;
  spec.step = 0.5;
  spec.normalize = [](std::string_view text) {
    return format_handicap(parse_handicap_halves(text));
  };
  return spec;
}

}  // namespace

GameInfo game_info() {
  GameInfo info;
  info.name = "phutball";
  info.title = "Phutball";
  info.summary =
      "Philosopher's Football as pbmserv hosted it: place men or jump the ball over them to a "
      "goal line";
  info.min_seats = info.max_seats = 2;
  info.options = {
      handicap_option(),
      OptionSpec::choice("own_goal", "lose", {"lose", "illegal"},
                         "a move ending on or beyond the mover's home line: loses, or is illegal"),
      OptionSpec::boolean("corner_exit", false, "off", "on",
                         "a diagonal hop over a corner point leaves the board as a goal"),
      OptionSpec::choice("repetition", "none", {"none", "draw_on_threefold", "superko"},
                         "no rule, a tie at the third occurrence, or no move may recreate a "
                         "position"),
      OptionSpec::integer("ply_cap", 0, 0, kMaxPlyCap,
                          "the game is a tie after this many plies "
                          "(0 = no cap)"),
      OptionSpec::boolean("lenient_path", false, "off", "on",
                         "a path may leave out the ball's point (H13-L10 means H10-H13-L10)"),
  };
  info.presets = {
      {"pbmserv", {}, "the default ruleset, as pbmserv played it (every option at its default)"},
      {"winningways",
       {{"own_goal", "illegal"}, {"corner_exit", "on"}, {"repetition", "draw_on_threefold"}},
       "the Winning Ways reading: own goals illegal, corner exits, a tie on threefold repetition"},
  };
  return info;
}

int parse_handicap_halves(std::string_view text) {
  const std::string t(trim(text));
  auto fail = [&]() -> int {
    throw OptionError("bad value '" + t +
                      "' for option handicap: expected a multiple of 0.5 from -8.5 to 8.5");
  };
  std::string_view rest = t;
  bool negative = false;
  if (!rest.empty() && (rest[0] == '+' || rest[0] == '-')) {
    negative = rest[0] == '-';
    rest.remove_prefix(1);
  }
  const std::size_t dot = rest.find('.');
  const std::string_view whole = rest.substr(0, dot);
  int value = 0;
  auto [end, ec] = std::from_chars(whole.data(), whole.data() + whole.size(), value);
  if (whole.empty() || whole.size() > 2 || ec != std::errc() ||
      end != whole.data() + whole.size()) {
    return fail();
  }
  int halves = 2 * value;
  if (dot != std::string_view::npos) {
    const std::string_view frac = rest.substr(dot + 1);
    if (frac == "5") {
      ++halves;
    } else if (frac != "0") {
      return fail();
    }
  }
  if (halves > kMaxHandicapHalves) return fail();
  return negative ? -halves : halves;
}

std::string format_handicap(int halves) {
  if (halves % 2 == 0) return std::to_string(halves / 2);
  const int magnitude = halves < 0 ? -halves : halves;
  std::string out = halves < 0 ? "-" : "";
  out += std::to_string(magnitude / 2);
  out += ".5";
  return out;
}

Rules rules_from_options(const OptionValues& o) {
  const std::string& repetition = o.get("repetition");
  return make_rules(parse_handicap_halves(o.get("handicap")), o.get("own_goal") == "illegal",
                    o.get("corner_exit") == "on",
                    repetition == "superko"             ? Repetition::kSuperko
                    : repetition == "draw_on_threefold" ? Repetition::kDrawOnThreefold
                                                        : Repetition::kNone,
                    o.get_int("ply_cap"), o.get("lenient_path") == "on");
}

PhutballGame::PhutballGame(OptionValues options)
    : options_(std::move(options)), rules_(rules_from_options(options_)) {}

const GameInfo& PhutballGame::info() const {
  static const GameInfo kInfo = game_info();
  return kInfo;
}

std::unique_ptr<State> PhutballGame::initial_state() const {
  return make_state(start_position(rules_));
}

std::unique_ptr<State> PhutballGame::parse_state(std::string_view text) const {
  ParsedPosition p = parse_position(rules_, text);
  return make_state(p.pos, p.ply, std::move(p.history));
}

std::unique_ptr<State> PhutballGame::make_state(const Position& pos, int ply,
                                                std::vector<std::uint64_t> earlier) const {
  auto self = std::static_pointer_cast<const PhutballGame>(shared_from_this());
  return std::make_unique<PhutballState>(std::move(self), pos, ply, std::move(earlier));
}

PhutballState::PhutballState(std::shared_ptr<const PhutballGame> game, const Position& pos, int ply,
                             std::vector<std::uint64_t> earlier)
    : game_(std::move(game)), game_base_(game_), pos_(pos), ply_(ply) {
  if (rules().repetition != Repetition::kNone) {
    history_ = std::move(earlier);
    history_.push_back(pos_.key);
  }
  settle();
}

std::unique_ptr<State> PhutballState::clone() const {
  return std::make_unique<PhutballState>(*this);
}

bool PhutballState::recreates(std::uint64_t key_after) const {
  return rules().repetition == Repetition::kSuperko &&
         std::find(history_.begin(), history_.end(), key_after) != history_.end();
}

bool PhutballState::ending_ok(int ball, std::uint64_t key) const {
  if (rules().own_goal_illegal && is_own_goal(rules(), pos_.to_move, ball)) return false;
  return !recreates(key ^ side_key());
}

bool PhutballState::placement_ok(int cell) const {
  return on_board(rules(), cell) && !pos_.men[cell] && cell != pos_.ball &&
         !recreates(pos_.key ^ man_key(cell) ^ side_key());
}

std::vector<Move> PhutballState::legal_moves() const {
  std::vector<Move> moves;
  if (outcome_ != Outcome::kNone) return moves;
  const Rules& r = rules();
  moves.reserve(r.points.size());
  const bool superko = r.repetition == Repetition::kSuperko;
  for (int cell : r.points) {
    if (pos_.men[cell] || cell == pos_.ball) continue;
    if (superko && !placement_ok(cell)) continue;
    moves.emplace_back().push_back(static_cast<Move::Code>(cell));
  }
  if (pos_.men_count == 0) return moves;
  for_each_jump_path(
      r, pos_,
      [&moves](const std::uint16_t* codes, std::size_t size, int, std::uint64_t) {
        Move& m = moves.emplace_back();
        for (std::size_t i = 0; i < size; ++i) m.push_back(codes[i]);
      },
      [this](int ball, std::uint64_t key) { return ending_ok(ball, key); });
  return moves;
}

std::vector<Move> PhutballState::distinct_moves() const {
  std::vector<Move> moves;
  if (outcome_ != Outcome::kNone) return moves;
  for (int cell : rules().points) {
    if (placement_ok(cell)) moves.emplace_back().push_back(static_cast<Move::Code>(cell));
  }
  for_each_jump_result(
      rules(), pos_,
      [&moves](const std::uint16_t* codes, std::size_t size, int, std::uint64_t) {
        Move& m = moves.emplace_back();
        for (std::size_t i = 0; i < size; ++i) m.push_back(codes[i]);
      },
      [this](int ball, std::uint64_t key) { return ending_ok(ball, key); });
  return moves;
}

void PhutballState::apply(const Move& move) {
  apply_move(pos_, move.codes().data(), move.size());
  ++ply_;
  if (rules().repetition != Repetition::kNone) history_.push_back(pos_.key);
  settle();
}

void PhutballState::settle() {
  outcome_ = ball_outcome(rules(), pos_.ball);
  end_reason_ = outcome_ == Outcome::kNone ? EndReason::kNone : EndReason::kBall;
  if (outcome_ != Outcome::kNone) return;
  if (rules().repetition == Repetition::kDrawOnThreefold &&
      std::count(history_.begin(), history_.end(), pos_.key) >= 3) {
    outcome_ = Outcome::kDraw;
    end_reason_ = EndReason::kThreefold;
  } else if (rules().ply_cap > 0 && ply_ >= rules().ply_cap) {
    outcome_ = Outcome::kDraw;
    end_reason_ = EndReason::kPlyCap;
  } else if (!has_any_move()) {
    // §6.3: cannot happen on the standard board (TV-19); a loss for the side to move.
    outcome_ = pos_.to_move == kOhs ? Outcome::kEksWins : Outcome::kOhsWins;
    end_reason_ = EndReason::kNoMoves;
  }
}

bool PhutballState::has_any_move() const {
  const Rules& r = rules();
  const int empty_points = static_cast<int>(r.points.size()) - 1 - pos_.men_count;
  if (empty_points > 0 && r.repetition != Repetition::kSuperko) return true;
  for (int cell : r.points) {
    if (placement_ok(cell)) return true;
  }
  auto ok = [this](int ball, std::uint64_t key) { return ending_ok(ball, key); };
  for (int d : kDirections) {
    const int to = hop_landing(r, pos_.men, pos_.ball, d);
    if (to < 0) continue;
    Position child = pos_;
    make_hop(child, to);
    if (has_legal_ending(r, child, ok)) return true;
  }
  return false;
}

std::vector<double> PhutballState::returns() const {
  switch (outcome_) {
    case Outcome::kOhsWins:
      return {1.0, 0.0};
    case Outcome::kEksWins:
      return {0.0, 1.0};
    case Outcome::kDraw:
      return {0.5, 0.5};
    default:
      return {0.0, 0.0};
  }
}

std::string PhutballState::result_text() const {
  const std::string ball = point_name(pos_.ball);
  switch (end_reason_) {
    case EndReason::kBall: {
      const bool ohs = outcome_ == Outcome::kOhsWins;
      const int winner = ohs ? kOhs : kEks;
      // The side that moved last is the one not to move now; if it lost, it scored an own goal.
      const bool own_goal = ply_ > 0 && pos_.to_move == winner;
      return std::string(ohs ? "Ohs wins" : "Eks wins") +
             (own_goal ? (ohs ? ": Eks's own goal, the ball ended on " + ball + "."
                              : ": Ohs's own goal, the ball ended on " + ball + ".")
                       : ": the ball ended on " + ball + ".");
    }
    case EndReason::kThreefold:
      return "Game was a tie: the same position occurred for the third time.";
    case EndReason::kPlyCap:
      return "Game was a tie: the ply cap of " + std::to_string(rules().ply_cap) +
             " plies was reached.";
    case EndReason::kNoMoves:
      return pos_.to_move == kOhs ? "Eks wins: Ohs has no legal move."
                                  : "Ohs wins: Eks has no legal move.";
    default:
      return "";
  }
}

std::string PhutballState::move_to_string(const Move& move) const {
  return move_text(move.codes().data(), move.size());
}

std::vector<std::string> PhutballState::steps_of(const Move& move) const {
  std::vector<std::string> steps;
  for (Move::Code c : move) steps.push_back(point_name(c));
  return steps;
}

std::string PhutballState::to_text(const std::vector<std::string>&) const {
  return board_text(rules(), pos_);
}

std::string PhutballState::serialize() const {
  const std::vector<std::uint64_t> earlier(history_.begin(),
                                           history_.empty() ? history_.end() : history_.end() - 1);
  return format_position(rules(), pos_, ply_, earlier);
}

bool PhutballState::equals(const State& other) const {
  auto* o = dynamic_cast<const PhutballState*>(&other);
  return o && o->game_->options() == game_->options() && o->pos_ == pos_ && o->ply_ == ply_ &&
         o->history_ == history_;
}

std::string board_page(const State& state, const PageInfo& info) {
  auto* s = dynamic_cast<const PhutballState*>(&state);
  if (!s) throw std::invalid_argument("board_page needs a Phutball state");
  return board_page(s->rules(), s->position(), s->outcome(), info);
}

}  // namespace plateau::phutball
