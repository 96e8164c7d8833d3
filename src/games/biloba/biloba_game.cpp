#include "games/biloba/biloba_game.h"

#include <algorithm>

#include "core/error.h"
#include "core/text.h"
#include "core/zobrist.h"
#include "games/biloba/biloba_movegen.h"
#include "games/biloba/biloba_notation.h"

namespace plateau::biloba {

GameInfo game_info() {
  GameInfo info;
  info.name = "biloba";
  info.title = "Biloba";
  info.summary =
      "2-4 players on a 9x9 octagon: capture by sandwiching and refill, as biloba 0.9.3 plays";
  info.min_seats = 2;
  info.max_seats = 4;
  info.options = {
      OptionSpec::integer("players", 2, 2, 4, "number of players (orange, blue, red, green)"),
      OptionSpec::choice("no_legal_move", "pass", {"pass", "wait"},
                         "a seat without a legal move passes, or waits for ever as the original"),
      OptionSpec::integer("turn_cap", 0, 0, 1000000,
                          "stop after this many turns and score a draw (0 = no cap)"),
      OptionSpec::integer("no_progress", kDefaultNoProgress, 0, 1000000,
                          "draw after this many turns in a row without a capture or an "
                          "elimination (0 = never, as the original)"),
  };
  // `classic` is biloba 0.9.3's rules exactly, so its games may last for ever (§10.13).
  info.presets = {{"classic",
                   {{"no_progress", "0"}},
                   "biloba 0.9.3's rules (no no-progress draw; the other options at their "
                   "defaults)"}};
  info.seat_count_option = "players";
  info.builtin_players = {"classic"};
  return info;
}

BilobaGame::BilobaGame(OptionValues options)
    : options_(std::move(options)),
      players_(options_.get_int("players")),
      pass_(options_.get("no_legal_move") == "pass"),
      turn_cap_(options_.get_int("turn_cap")),
      no_progress_(options_.get_int("no_progress")) {}

const GameInfo& BilobaGame::info() const {
  static const GameInfo kInfo = game_info();
  return kInfo;
}

std::string BilobaGame::seat_label(int seat) const { return std::string(1, colour_label(seat)); }
std::string BilobaGame::seat_name(int seat) const { return colour_name(seat); }

std::unique_ptr<State> BilobaGame::initial_state() const {
  return make_state(start_position(players_));
}

std::unique_ptr<State> BilobaGame::parse_state(std::string_view text) const {
  return make_state(parse_position(text, players_, turn_cap_ > 0));
}

std::unique_ptr<State> BilobaGame::make_state(const Position& pos) const {
  auto self = std::static_pointer_cast<const BilobaGame>(shared_from_this());
  return std::make_unique<BilobaState>(std::move(self), pos);
}

BilobaState::BilobaState(std::shared_ptr<const BilobaGame> game, const Position& pos)
    : game_base_(game), game_(game.get()), pos_(pos) {
  if (game_->turn_cap() == 0) pos_.turns = 0;
  if (!game_ended(pos_) && pos_.count[pos_.to_move] == 0) {
    pos_.to_move = next_seat(pos_, pos_.to_move);
  }
  refresh_key();
  update_outcome();
}

void BilobaState::update_outcome() {
  cause_ = Cause::kRules;
  if (game_ended(pos_)) {
    outcome_ = board_empty(pos_)   ? Outcome::kNoResult
               : winner(pos_) >= 0 ? Outcome::kWin
                                   : Outcome::kDraw;
  } else if (game_->turn_cap() > 0 && pos_.turns >= game_->turn_cap()) {
    outcome_ = Outcome::kDraw;
    cause_ = Cause::kTurnCap;
  } else if (game_->no_progress() > 0 && quiet_ >= game_->no_progress()) {
    outcome_ = Outcome::kDraw;
    cause_ = Cause::kNoProgress;
  } else if (!game_->pass_when_stuck() && start_turn().phase() == Turn::Phase::kStuck) {
    outcome_ = Outcome::kNoResult;
  } else {
    outcome_ = Outcome::kOngoing;
  }
}

std::unique_ptr<State> BilobaState::clone() const { return std::make_unique<BilobaState>(*this); }

void BilobaState::apply(const Move& move) {
  // A turn that is only a move body (it starts with a square: no forced capture, elimination or
  // pass, §7.2) and captures nothing moves one pawn; anything else replays through the Turn.
  const std::uint64_t before_key = key_;
  const std::size_t n = move.size();
  const int from = n >= 2 && n <= 3 ? move[0] : kSquares;
  const int to = n == 3 ? move[2] : n == 2 ? move[1] : 0;
  if (from < kSquares && !body_captures(pos_.cell, from, to, pos_.to_move)) {
    pos_.cell[to] = pos_.cell[from];
    pos_.pawn_id[to] = pos_.pawn_id[from];
    pos_.cell[from] = kEmpty;
    pos_.pawn_id[from] = kNoPawn;
    const int mover = pos_.to_move;
    pos_.to_move = next_seat(pos_, pos_.to_move);
    slide_key(from, to, pos_.cell[to], mover);
    ++quiet_;  // the direct path never captures
    note_turn(before_key, /*removed_pawn=*/false);
  } else {
    // A token that starts with a square was made at the turn's first choice (§5.2 passed).
    Turn turn = from < kSquares || (n > 3 && move[0] < kSquares)
                    ? Turn::at_first_choice(pos_, game_->pass_when_stuck())
                    : start_turn();
    for (Move::Code code : move) {
      if (code < kSquares) turn.choose(code);
    }
    // Captures and eliminations remove pawns, refills only move them: a turn made progress iff
    // the number of pawns on the board fell.
    int before = 0;
    int after = 0;
    for (int s = 0; s < pos_.players; ++s) before += pos_.count[s];
    pos_ = turn.position();
    for (int s = 0; s < pos_.players; ++s) after += pos_.count[s];
    quiet_ = after < before ? 0 : quiet_ + 1;
    refresh_key();
    note_turn(before_key, /*removed_pawn=*/after < before);
  }
  if (game_->turn_cap() > 0) ++pos_.turns;
  ++ply_;
  update_outcome();
}

std::vector<double> BilobaState::returns() const {
  const int n = pos_.players;
  std::vector<double> r(n, 0.0);
  if (outcome_ == Outcome::kOngoing) return r;
  if (outcome_ == Outcome::kWin) {
    r[winner(pos_)] = 1.0;
    return r;
  }
  // A draw is shared as a stop for want of progress is (biloba_history.cpp); no result: by all.
  if (outcome_ == Outcome::kDraw) return no_progress_values();
  for (int s = 0; s < n; ++s) r[s] = 1.0 / n;
  return r;
}

std::string BilobaState::result_text() const {
  return result_line(outcome_, winner_seat(), {}, draw_cause());
}

std::string BilobaState::draw_cause() const {
  switch (cause_) {
    case Cause::kNoProgress:
      return std::to_string(game_->no_progress()) + " turns without a capture";
    case Cause::kTurnCap:
      return "turn cap of " + std::to_string(game_->turn_cap()) + " turns";
    case Cause::kRules:
      break;
  }
  return "";
}

std::string BilobaState::termination() const {
  switch (cause_) {
    case Cause::kNoProgress:
      return "no progress";
    case Cause::kTurnCap:
      return "turn cap";
    case Cause::kRules:
      break;
  }
  return "";
}

bool BilobaState::seat_in_play(int seat) const {
  return outcome_ == Outcome::kOngoing && seat >= 0 && seat < pos_.players &&
         pos_.count[seat] > 0;
}

std::string BilobaState::move_to_string(const Move& move) const { return turn_token(move); }

Move BilobaState::parse_move(std::string_view text) const {
  const TokenSyntax syntax = parse_token_syntax(text);
  const std::string shown = to_lower(trim(text));
  auto fail = [&shown](const std::string& why) -> void {
    throw RuleError(shown + " is not legal: " + why);
  };
  if (outcome_ != Outcome::kOngoing) fail("the game is over");
  const int seat = pos_.to_move;
  const std::string who = colour_name(seat);
  Turn turn = start_turn();
  using Body = TokenSyntax::Body;
  // What the start of the turn already decided (§5.2).
  Body expected = Body::kMove;
  if (turn.captured_at_start()) {
    expected = Body::kX;
  } else if (turn.done()) {
    expected = turn.token()[0] == kCodePass ? Body::kPass : Body::kOut;
  }
  if (syntax.body != expected) {
    switch (expected) {
      case Body::kX:
        fail(who +
             " first takes the pawns sandwiched at the start of the turn and makes no move "
             "(x)");
        break;
      case Body::kOut:
        fail(who + " is eliminated at the start of the turn (out)");
        break;
      case Body::kPass:
        fail(who + " has no legal move (pass)");
        break;
      case Body::kMove:
        if (syntax.body == Body::kX)
          fail("no pawn is sandwiched at the start of " + who + "'s turn");
        if (syntax.body == Body::kOut) fail(who + " is not eliminated");
        fail(who + " has a legal move");
        break;
    }
  }
  if (syntax.body == Body::kMove) {
    const int from = syntax.squares[0];
    const std::string from_name = square_name(from);
    if (pos_.cell[from] != seat) fail("there is no " + who + " pawn on " + from_name);
    if (!turn.accepts(from)) fail("the " + who + " pawn on " + from_name + " cannot move");
    turn.choose(from);
    const int to = syntax.squares[1];
    if (syntax.squares.size() == 2 && to == kCentre) {
      fail("a pawn never stops on the centre e5; a centre walk is written like d6-e5-f5");
    }
    if (!turn.accepts(to)) {
      if (to == kCentre) {
        fail(adjacent(from, kCentre) ? "the centre e5 is closed (all its neighbours are occupied)"
                                     : from_name + " is not next to the centre e5");
      }
      fail(square_name(to) + " is not a destination of the pawn on " + from_name +
           " (steps go to empty neighbours; a jump goes over one pawn, never backwards)");
    }
    turn.choose(to);
    if (syntax.squares.size() == 3) {
      const int exit = syntax.squares[2];
      if (!turn.accepts(exit)) {
        fail("the walk must leave e5 to an empty neighbour other than " + from_name + ", not " +
             square_name(exit));
      }
      turn.choose(exit);
    }
  }
  auto pending_list = [&turn]() {
    std::array<std::uint8_t, kSquares> squares;
    const int n = turn.choices(squares);
    std::vector<std::string> names;
    for (int i = 0; i < n; ++i) names.push_back(square_name(squares[i]));
    return join(names, ", ");
  };
  for (const auto& [a, b] : syntax.refills) {
    const std::string refill = "refill " + square_name(a) + "-" + square_name(b);
    if (turn.phase() != Turn::Phase::kRefillFrom) fail(refill + ": no refill is asked for");
    if (!turn.accepts(a)) {
      fail(refill + ": " + square_name(a) + " is not a capturer with a gap to fill (those are " +
           pending_list() + ")");
    }
    turn.choose(a);
    if (!turn.accepts(b)) {
      fail(refill + ": " + square_name(b) + " is not an empty captured square of " +
           square_name(a) + " (its gaps are " + pending_list() + ")");
    }
    turn.choose(b);
  }
  if (turn.phase() == Turn::Phase::kRefillFrom) {
    fail("a refill is still to be chosen (capturers with a gap: " + pending_list() + ")");
  }
  const bool eliminated = !turn.token().empty() && turn.token().back() == kCodePlusOut;
  if (eliminated != syntax.plus_out) {
    fail(eliminated ? who + " is eliminated after the captures (+out)"
                    : who + " is not eliminated after the captures");
  }
  return turn.token();
}

Turn BilobaState::run_steps(const std::vector<std::string>& steps) const {
  if (outcome_ != Outcome::kOngoing) throw RuleError("the game is over");
  Turn turn = start_turn();
  for (const std::string& step : steps) {
    auto sq = parse_square(trim(step));
    if (!sq) throw RuleError("'" + step + "' is not a square (a1..i9)");
    if (!turn.accepts(*sq)) {
      std::array<std::uint8_t, kSquares> squares;
      const int n = turn.choices(squares);
      std::vector<std::string> names;
      for (int i = 0; i < n; ++i) names.push_back(square_name(squares[i]));
      throw RuleError("step " + square_name(*sq) + " is not legal here" +
                      (names.empty() ? std::string(": the turn is complete")
                                     : ": expected one of " + join(names, " ")));
    }
    turn.choose(*sq);
  }
  return turn;
}

StepChoices BilobaState::next_steps(const std::vector<std::string>& prefix) const {
  const Turn turn = run_steps(prefix);
  StepChoices choices;
  choices.complete = turn.done();
  std::array<std::uint8_t, kSquares> squares;
  const int n = turn.choices(squares);
  for (int i = 0; i < n; ++i) choices.next.push_back(square_name(squares[i]));
  std::sort(choices.next.begin(), choices.next.end());
  return choices;
}

Move BilobaState::move_from_steps(const std::vector<std::string>& steps) const {
  const Turn turn = run_steps(steps);
  if (!turn.done()) throw RuleError("the steps do not form a whole turn yet");
  return turn.token();
}

std::vector<std::string> BilobaState::steps_of(const Move& move) const {
  std::vector<std::string> steps;
  for (Move::Code code : move) {
    if (code < kSquares) steps.push_back(square_name(code));
  }
  return steps;
}

std::string BilobaState::to_text(const std::vector<std::string>& seat_names) const {
  return board_text(pos_, outcome_, winner_seat(), seat_names, draw_cause());
}

std::string BilobaState::serialize() const {
  return format_position(pos_, game_->turn_cap() > 0 ? pos_.turns : -1);
}

std::uint64_t BilobaState::hash() const {
  // The repetition key (cells and seat to move, kept up to date by apply), then the turns
  // played when a turn cap counts them.
  std::uint64_t h = key_;
  if (pos_.turns > 0) {
    std::uint64_t t = static_cast<std::uint64_t>(pos_.turns) * 0x9E3779B97F4A7C15ull;
    h ^= splitmix64(t);
  }
  return h;
}

bool BilobaState::equals(const State& other) const {
  auto* o = dynamic_cast<const BilobaState*>(&other);
  return o && o->game_->options() == game_->options() && o->pos_ == pos_;
}

}  // namespace plateau::biloba
