#include "games/bohnduell/bohnduell_game.h"

#include <algorithm>

#include "core/error.h"
#include "core/text.h"
#include "core/zobrist.h"
#include "games/bohnduell/bohnduell_notation.h"
#include "games/bohnduell/bohnduell_print.h"

namespace plateau::bohnduell {

GameInfo game_info() {
  GameInfo info;
  info.name = "bohnduell";
  info.title = "BohnDuell";
  info.summary = "two-player sowing game from Brettspielwelt: 4 bowls, a store and a supply each";
  info.min_seats = info.max_seats = 2;
  info.options = {
      OptionSpec::integer("supply", 20, 1, kMaxSupply, "starting supply N per player"),
      OptionSpec::choice("short_supply", "illegal", {"illegal", "partial"},
                         "S k with supply < 5-k: illegal, or fill as far as the supply goes"),
      OptionSpec::choice("steal_scope", "target", {"target", "any"},
                         "which empty bowls receiving a supply ball steal"),
      OptionSpec::boolean("steal_on_harvest", false, "no", "yes",
                         "a harvested ball landing in an empty own bowl steals too"),
      OptionSpec::boolean("sower_to_store", false, "no", "yes",
                         "the ball that triggered a steal goes into the store too"),
      OptionSpec::choice("opposite", "mirror", {"mirror", "same"},
                         "mirror: A d faces B(5-d); same: A d faces B d"),
      OptionSpec::choice("leftovers", "nobody", {"nobody", "owner"},
                         "whether balls left in small bowls score for their owner"),
      OptionSpec::boolean("extra_turn", false, "no", "yes", "another move after a harvest"),
      OptionSpec::choice("start", "random", {"random", "1", "2"},
                         "table option: who sits in seat A, which moves first"),
  };
  info.presets = {{"bsw", {}, "the default ruleset (every option at its default)"}};
  info.seat_order_option = "start";
  return info;
}

Rules rules_from_options(const OptionValues& o) {
  Rules r;
  r.supply = o.get_int("supply");
  r.short_supply_partial = o.get("short_supply") == "partial";
  r.steal_any = o.get("steal_scope") == "any";
  r.steal_on_harvest = o.get("steal_on_harvest") == "yes";
  r.sower_to_store = o.get("sower_to_store") == "yes";
  r.opposite_same = o.get("opposite") == "same";
  r.leftovers_owner = o.get("leftovers") == "owner";
  r.extra_turn = o.get("extra_turn") == "yes";
  return r;
}

BohnDuellGame::BohnDuellGame(OptionValues options)
    : options_(std::move(options)), rules_(rules_from_options(options_)) {}

const GameInfo& BohnDuellGame::info() const {
  static const GameInfo kInfo = game_info();
  return kInfo;
}

std::unique_ptr<State> BohnDuellGame::initial_state() const {
  return make_state(start_position(rules_));
}

std::unique_ptr<State> BohnDuellGame::parse_state(std::string_view text) const {
  return make_state(parse_position(rules_, text));
}

std::unique_ptr<State> BohnDuellGame::make_state(const Position& pos) const {
  auto self = std::static_pointer_cast<const BohnDuellGame>(shared_from_this());
  return std::make_unique<BohnDuellState>(std::move(self), pos);
}

BohnDuellState::BohnDuellState(std::shared_ptr<const BohnDuellGame> game, const Position& pos)
    : game_(std::move(game)), game_base_(game_), pos_(pos) {}

std::unique_ptr<State> BohnDuellState::clone() const {
  return std::make_unique<BohnDuellState>(*this);
}

std::vector<Move> BohnDuellState::legal_moves() const {
  std::vector<Move> moves;
  const unsigned mask = legal_mask(rules(), pos_);
  for (int code = 0; code < kNumMoveCodes; ++code) {
    if (mask & (1u << code)) moves.push_back(Move{static_cast<Move::Code>(code)});
  }
  return moves;
}

void BohnDuellState::apply(const Move& move) {
  apply_move(rules(), pos_, move[0]);
  ++ply_;
}

std::vector<double> BohnDuellState::returns() const {
  if (!pos_.over) return {0.0, 0.0};
  const int a = score(rules(), pos_, 0);
  const int b = score(rules(), pos_, 1);
  if (a == b) return {0.5, 0.5};
  return a > b ? std::vector<double>{1.0, 0.0} : std::vector<double>{0.0, 1.0};
}

std::string BohnDuellState::result_text() const { return game_over_line(rules(), pos_); }

std::string BohnDuellState::move_to_string(const Move& move) const { return move_token(move[0]); }

Move BohnDuellState::parse_move(std::string_view text) const {
  const std::string shown(trim(text));
  auto code = parse_move_token(text);
  if (!code) {
    if (to_lower(shown) == "pass") {
      throw RuleError("pass is never entered: a player without a legal move passes automatically");
    }
    throw RuleError("'" + shown + "' is not a BohnDuell move: expected S1..S4 or H1..H4");
  }
  const std::string token = move_token(*code);
  if (pos_.over) throw RuleError(token + " is not legal: the game is over");
  const Side& me = pos_.side[pos_.to_move];
  const char seat = pos_.to_move == 0 ? 'A' : 'B';
  const int d = bowl_of(*code);
  if (is_legal(rules(), pos_, pos_.to_move, *code)) return Move{static_cast<Move::Code>(*code)};
  if (is_supply(*code)) {
    if (me.supply == 0) throw RuleError(token + " is not legal: " + seat + "'s supply is empty");
    throw RuleError(token + " is not legal: it needs " + std::to_string(5 - d) + " balls and " +
                    seat + "'s supply holds " + std::to_string(me.supply));
  }
  throw RuleError(token + " is not legal: bowl " + seat + std::to_string(d) + " holds " +
                  std::to_string(me.bowl[d]) + (me.bowl[d] == 1 ? " ball" : " balls") +
                  ", a harvest needs exactly " + std::to_string(d));
}

StepChoices BohnDuellState::next_steps(const std::vector<std::string>& prefix) const {
  // A BohnDuell move is a single step: the token itself (a drag onto a bowl or a click on it).
  StepChoices choices;
  if (prefix.empty()) {
    for (const Move& m : legal_moves()) choices.next.push_back(move_token(m[0]));
    std::sort(choices.next.begin(), choices.next.end());
    return choices;
  }
  if (prefix.size() > 1) throw RuleError("a BohnDuell move is a single step");
  parse_move(prefix[0]);  // throws if not legal
  choices.complete = true;
  return choices;
}

Move BohnDuellState::move_from_steps(const std::vector<std::string>& steps) const {
  if (steps.size() != 1) throw RuleError("a BohnDuell move is exactly one step");
  return parse_move(steps[0]);
}

std::vector<std::string> BohnDuellState::steps_of(const Move& move) const {
  return {move_token(move[0])};
}

std::string BohnDuellState::to_text(const std::vector<std::string>& seat_names) const {
  return board_text(rules(), pos_, 0, seat_names);
}

std::string BohnDuellState::serialize() const { return format_position(pos_); }

std::uint64_t BohnDuellState::hash() const {
  // Features: 8 bowls, 2 supplies, 2 stores (values < 256), then the side to move / over.
  static const ZobristTable kKeys(13, 256, 0xB0B0D0E11ull);
  std::uint64_t h = 0;
  int feature = 0;
  for (const Side& s : pos_.side) {
    for (int d = 1; d <= kBowls; ++d) h ^= kKeys.key(feature++, s.bowl[d]);
    h ^= kKeys.key(feature++, s.supply);
    h ^= kKeys.key(feature++, s.store);
  }
  return h ^ kKeys.key(feature, pos_.over ? 2 : pos_.to_move);
}

bool BohnDuellState::equals(const State& other) const {
  auto* o = dynamic_cast<const BohnDuellState*>(&other);
  return o && o->game_->options() == game_->options() && o->pos_ == pos_;
}

}  // namespace plateau::bohnduell
