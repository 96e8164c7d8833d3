// The conformance suite (DESIGN.md §2): every registered game, with default and non-default
// options, survives random playouts that check copies, hashes, serialisation, notation, step
// input, de-duplicated AI moves, results and record round trips at every ply.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <unordered_set>

#include "core/error.h"
#include "core/random.h"
#include "core/record.h"
#include "core/registry.h"
#include "core/text.h"
#include "games/register.h"

namespace plateau {
namespace {

struct Case {
  std::string spec;
  int playouts;  // full checks at every ply of every playout
  int max_plies; // stop a playout after this many plies (loopy games); 0 = play to the end
};

// One line per game variant; a new game adds its lines here.
std::vector<Case> cases() {
  return {
      // Random Biloba games often shuffle for thousands of turns: a ply cap, or the turn_cap
      // option (which ends the game as a draw) for playouts that reach a terminal state.
      {"biloba", 8, 250},
      {"biloba(players=3)", 8, 250},
      {"biloba(players=4)", 8, 250},
      {"biloba(turn_cap=150)", 3, 0},
      {"biloba(players=4,no_legal_move=wait,turn_cap=150)", 3, 0},
      {"bohnduell", 2000, 0},
      {"bohnduell(supply=5)", 1000, 0},
      {"bohnduell(supply=63)", 100, 0},
      {"bohnduell(supply=9,short_supply=partial,steal_scope=any,steal_on_harvest=yes,"
       "sower_to_store=yes,opposite=same,leftovers=owner,extra_turn=yes)",
       1000, 0},
      // Phutball random games are long and loopy: cap the plies (the seed's games stay below a
      // few thousand jump paths per position; ply_cap=40 ends its games as ties).
      {"phutball", 5, 100},
      {"phutball(winningways)", 3, 100},
      {"phutball(handicap=0.5)", 3, 100},
      {"phutball(handicap=-2,repetition=superko,ply_cap=40)", 4, 0},
      {"phutball(handicap=8.5,own_goal=illegal,corner_exit=on,lenient_path=on)", 2, 100},
      {"phutball(handicap=-8,repetition=draw_on_threefold)", 4, 100},
  };
}

std::string name_of(const ::testing::TestParamInfo<Case>& info) {
  std::string out;
  for (char c : info.param.spec) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return out;
}

class Conformance : public ::testing::TestWithParam<Case> {
 protected:
  void SetUp() override { register_builtin_games(); }
};

// Walks the step tree from `prefix` and collects every complete move's notation; gives up
// (returns false) beyond `budget` nodes so pathological positions stay cheap.
bool collect_step_moves(const State& s, std::vector<std::string>& prefix,
                        std::set<std::string>& out, int& budget) {
  if (--budget < 0) return false;
  StepChoices c = s.next_steps(prefix);
  if (c.complete) out.insert(s.move_to_string(s.move_from_steps(prefix)));
  if (!std::is_sorted(c.next.begin(), c.next.end()) ||
      std::adjacent_find(c.next.begin(), c.next.end()) != c.next.end()) {
    ADD_FAILURE() << "next steps not sorted and unique after " << join(prefix, " ");
  }
  for (const std::string& step : c.next) {
    prefix.push_back(step);
    if (!collect_step_moves(s, prefix, out, budget)) return false;
    prefix.pop_back();
  }
  return true;
}

void check_state(const State& s) {
  const Game& game = *s.game();
  // Copies and hashes.
  auto copy = s.clone();
  ASSERT_TRUE(copy->equals(s));
  ASSERT_EQ(copy->hash(), s.hash());
  // Serialisation round trip.
  const std::string text = s.serialize();
  auto parsed = game.parse_state(text);
  ASSERT_TRUE(parsed->equals(s)) << text;
  ASSERT_EQ(parsed->serialize(), text);
  ASSERT_EQ(parsed->hash(), s.hash()) << text;
  ASSERT_EQ(parsed->current_seat(), s.current_seat()) << text;
  ASSERT_FALSE(s.to_text().empty());
  ASSERT_EQ(s.to_text().back(), '\n');

  const auto moves = s.legal_moves();
  const auto returns = s.returns();
  ASSERT_EQ(static_cast<int>(returns.size()), game.num_seats());
  double sum = 0;
  for (double r : returns) {
    ASSERT_GE(r, 0.0);
    ASSERT_LE(r, 1.0);
    sum += r;
  }
  if (s.is_terminal()) {
    ASSERT_TRUE(moves.empty()) << text;
    ASSERT_NEAR(sum, 1.0, 1e-9) << text;
    ASSERT_FALSE(s.result_text().empty());
    ASSERT_TRUE(s.distinct_moves().empty());
    ASSERT_THROW(s.parse_move("x"), RuleError);
    return;
  }
  ASSERT_EQ(sum, 0.0) << text;
  ASSERT_FALSE(moves.empty()) << "no moves but not terminal: " << text;
  ASSERT_GE(s.current_seat(), 0);
  ASSERT_LT(s.current_seat(), game.num_seats());

  // Notation: unique strings that parse back, in either case, to the same move.
  std::set<std::string> names;
  for (const Move& m : moves) {
    const std::string name = s.move_to_string(m);
    ASSERT_TRUE(names.insert(name).second) << "duplicate move string " << name << " in " << text;
    ASSERT_EQ(s.parse_move(name), m) << name;
    ASSERT_EQ(s.parse_move(to_lower(name)), m) << name;
    ASSERT_EQ(s.parse_move(to_upper(name)), m) << name;
    // Step input: the minimal steps of each move are offered one by one and rebuild it.
    std::vector<std::string> steps = s.steps_of(m);
    std::vector<std::string> prefix;
    for (const std::string& step : steps) {
      StepChoices c = s.next_steps(prefix);
      ASSERT_TRUE(std::binary_search(c.next.begin(), c.next.end(), step))
          << "step " << step << " of " << name << " not offered after '" << join(prefix, " ")
          << "' in " << text;
      prefix.push_back(step);
    }
    ASSERT_TRUE(s.next_steps(prefix).complete) << name;
    ASSERT_EQ(s.move_from_steps(prefix), m) << name;
  }
  // Step input offers exactly the legal moves (when the step tree is small enough to walk).
  std::set<std::string> from_steps;
  std::vector<std::string> prefix;
  int budget = 20000;
  if (collect_step_moves(s, prefix, from_steps, budget)) {
    ASSERT_EQ(from_steps, names) << text;
  }
  // AI moves: legal, one per resulting position, covering every resulting position.
  std::unordered_set<std::uint64_t> results_legal;
  if (moves.size() <= 5000) {
    for (const Move& m : moves) {
      auto child = s.clone();
      child->apply(m);
      results_legal.insert(child->hash());
    }
    std::unordered_set<std::uint64_t> results_distinct;
    for (const Move& m : s.distinct_moves()) {
      ASSERT_TRUE(names.count(s.move_to_string(m))) << s.move_to_string(m);
      auto child = s.clone();
      child->apply(m);
      ASSERT_TRUE(results_distinct.insert(child->hash()).second)
          << "two AI moves reach the same position: " << s.move_to_string(m);
    }
    ASSERT_EQ(results_distinct, results_legal) << text;
  }
  // Only the seat to move has moves: text from a terminal or another seat's view is rejected.
  ASSERT_THROW(s.parse_move(""), RuleError);
  ASSERT_THROW(s.next_steps({"??not-a-step??"}), RuleError);
}

TEST_P(Conformance, RandomPlayouts) {
  const Case& c = GetParam();
  auto game = make_game(c.spec);
  Rng rng(12345);
  int terminal = 0;
  for (int p = 0; p < c.playouts; ++p) {
    auto start = game->initial_state();
    auto s = start->clone();
    std::vector<Move> played;
    for (int ply = 0; c.max_plies == 0 || ply < c.max_plies; ++ply) {
      check_state(*s);
      if (HasFatalFailure()) return;
      if (s->is_terminal()) {
        ++terminal;
        break;
      }
      auto moves = s->legal_moves();
      const Move m = moves[rng.below(static_cast<std::uint32_t>(moves.size()))];
      const int before_ply = s->ply();
      auto before = s->clone();
      s->apply(m);
      ASSERT_EQ(s->ply(), before_ply + 1);
      ASSERT_TRUE(before->clone()->equals(*before));  // the copy was not touched by apply
      played.push_back(m);
    }
    // Record round trip.
    RecordHeader header;
    const std::string record = write_record(*start, played, header);
    auto loaded = load_record(record);
    ASSERT_TRUE(loaded.state->equals(*s)) << record;
    ASSERT_EQ(loaded.moves, played);
  }
  if (c.max_plies == 0) {
    EXPECT_EQ(terminal, c.playouts);
  }
}

// What the game says about itself (core/game.h, issue 13 item 9) is coherent: clients build
// forms, seat labels and bot menus from it without knowing the game.
TEST_P(Conformance, DescribesItself) {
  const auto game = make_game(GetParam().spec);
  const GameInfo& info = game->info();
  const int n = game->num_seats();
  ASSERT_GE(n, info.min_seats);
  ASSERT_LE(n, info.max_seats);
  std::set<std::string> labels;
  for (int s = 0; s < n; ++s) {
    EXPECT_FALSE(game->seat_label(s).empty());
    EXPECT_FALSE(game->seat_name(s).empty());
    EXPECT_TRUE(labels.insert(game->seat_label(s)).second) << "label twice: " << s;
  }
  for (const OptionSpec& o : info.options) {
    EXPECT_EQ(o.normalize(o.default_value), o.default_value) << o.name;
    if (o.type == OptionType::kEnum || o.type == OptionType::kBool) {
      EXPECT_NE(std::find(o.choices.begin(), o.choices.end(), o.default_value), o.choices.end())
          << o.name;
      for (const auto& c : o.choices) EXPECT_EQ(o.normalize(c), c) << o.name;
      if (o.type == OptionType::kBool) {
        EXPECT_EQ(o.choices.size(), 2u) << o.name;
      }
    } else {
      EXPECT_LE(o.min, o.max) << o.name;
      EXPECT_GE(std::stod(o.default_value), o.min) << o.name;
      EXPECT_LE(std::stod(o.default_value), o.max) << o.name;
    }
  }
  auto find_option = [&](const std::string& name) -> const OptionSpec* {
    for (const auto& o : info.options) {
      if (o.name == name) return &o;
    }
    return nullptr;
  };
  if (info.min_seats != info.max_seats) {
    const OptionSpec* seats = find_option(info.seat_count_option);
    ASSERT_NE(seats, nullptr) << "a game with several seat counts names its seat-count option";
    EXPECT_EQ(seats->type, OptionType::kInt);
    EXPECT_EQ(seats->min, info.min_seats);
    EXPECT_EQ(seats->max, info.max_seats);
    EXPECT_EQ(game->options().get_int(info.seat_count_option), n);
  }
  if (!info.seat_order_option.empty()) {
    const OptionSpec* order = find_option(info.seat_order_option);
    ASSERT_NE(order, nullptr);
    std::vector<std::string> expected{"random"};
    for (int s = 1; s <= n; ++s) expected.push_back(std::to_string(s));
    EXPECT_EQ(order->choices, expected);
  }
  for (std::uint64_t r = 0; r < 8; ++r) {
    EXPECT_GE(game->first_seat(r), 0);
    EXPECT_LT(game->first_seat(r), n);
  }
  const std::vector<BotLevel> ladder = game->bot_ladder();
  if (!ladder.empty()) {
    ASSERT_EQ(ladder.size(), 5u);
    for (std::size_t i = 1; i < ladder.size(); ++i) {
      EXPECT_GT(ladder[i].budget, ladder[i - 1].budget) << "level " << i + 1;
    }
  }
  const auto start = game->initial_state();
  for (const std::string& player : info.builtin_players) {
    Rng rng(1);
    auto move = start->builtin_player_move(player, rng);
    ASSERT_TRUE(move.has_value()) << player;
    const auto legal = start->legal_moves();
    EXPECT_NE(std::find(legal.begin(), legal.end(), *move), legal.end()) << player;
  }
}

INSTANTIATE_TEST_SUITE_P(AllGames, Conformance, ::testing::ValuesIn(cases()), name_of);

TEST(ConformanceCoverage, EveryRegisteredGameHasACase) {
  register_builtin_games();
  for (const GameInfo* info : registered_games()) {
    bool found = false;
    for (const Case& c : cases()) found |= make_game(c.spec)->name() == info->name;
    EXPECT_TRUE(found) << info->name << " has no conformance case";
  }
}

}  // namespace
}  // namespace plateau
