#include "ai/bot.h"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "ai/alphabeta.h"
#include "ai/greedy.h"
#include "ai/levels.h"
#include "ai/mcts.h"
#include "core/error.h"
#include "core/game.h"
#include "core/random.h"
#include "core/registry.h"
#include "core/text.h"

namespace plateau {

namespace {

// Steps a random walk may take before it gives up (a Phutball jump path has at most a few dozen
// landings; more means something is wrong with the game's step input).
constexpr int kMaxWalkSteps = 256;

class RandomBot : public Bot {
 public:
  explicit RandomBot(const BotOptions& options) : options_(options), rng_(options.seed) {}
  std::string name() const override { return "random"; }
  Move choose_move(const State& state) override { return analyse(state).best; }

  // Uniform over the distinct resulting positions (not over legal_moves(): a Phutball move
  // lists every jump path, tens of millions in some positions). When the bounded list is cut
  // short (a dense Phutball block), a random walk through step input instead: uniform at each
  // step among the legal next steps, stopping at a complete prefix with probability
  // 1 / (1 + choices). Step queries never enumerate moves, so the walk stays cheap.
  ai::SearchResult analyse(const State& state) override {
    ai::SearchLimits limits;
    limits.movetime_ms = options_.movetime_ms;
    limits.clock = options_.clock;
    const ai::Deadline deadline(limits);
    WorkBudget budget{ai::kRootMoveWork, [&deadline] { return deadline.expired(); }};
    std::vector<Move> moves = state.bounded_distinct_moves(budget);
    ai::SearchResult r;
    r.work = budget.used;
    r.info = std::to_string(moves.size()) + " distinct moves";
    if (!budget.truncated) {
      r.best = moves[rng_.below(static_cast<std::uint32_t>(moves.size()))];
    } else if (auto walked = random_walk(state)) {
      r.best = *walked;
      r.info += " of more: a random walk over steps";
    } else {
      r.best = moves[rng_.below(static_cast<std::uint32_t>(moves.size()))];
      r.info += " of more";
    }
    r.pv = {r.best};
    return r;
  }

 private:
  std::optional<Move> random_walk(const State& state) {
    std::vector<std::string> prefix;
    for (int i = 0; i < kMaxWalkSteps; ++i) {
      const StepChoices c = state.next_steps(prefix);
      const auto n = static_cast<std::uint32_t>(c.next.size());
      if (c.complete && (n == 0 || rng_.below(n + 1) == 0)) return state.move_from_steps(prefix);
      if (n == 0) return std::nullopt;
      prefix.push_back(c.next[rng_.below(n)]);
    }
    return std::nullopt;
  }

  BotOptions options_;
  Rng rng_;
};

class GreedyBot : public Bot {
 public:
  explicit GreedyBot(const BotOptions& options) : options_(options), rng_(options.seed) {}
  std::string name() const override { return "greedy"; }
  Move choose_move(const State& state) override { return analyse(state).best; }
  ai::SearchResult analyse(const State& state) override {
    ai::SearchLimits limits;
    limits.movetime_ms = options_.movetime_ms;
    limits.clock = options_.clock;
    return ai::greedy_move(state, rng_, limits);
  }

 private:
  BotOptions options_;
  Rng rng_;
};

// A game's own built-in player (State::builtin_player_move), e.g. Biloba's `classic`.
class BuiltinBot : public Bot {
 public:
  BuiltinBot(std::string player, std::uint64_t seed) : player_(std::move(player)), rng_(seed) {}
  std::string name() const override { return player_; }
  Move choose_move(const State& state) override {
    if (auto m = state.builtin_player_move(player_, rng_)) return *m;
    throw OptionError(state.game()->name() + " has no '" + player_ + "' player");
  }

 private:
  std::string player_;
  Rng rng_;
};

// Levels 1-5: the search of levels.h for the game of the state, created on first use (and
// again if the bot is handed a different game).
class LevelBot : public Bot {
 public:
  LevelBot(int level, const BotOptions& options) : level_(level), options_(options) {}
  std::string name() const override { return std::to_string(level_); }
  Move choose_move(const State& state) override { return analyse(state).best; }

  ai::SearchResult analyse(const State& state) override {
    const std::string spec = state.game()->spec();
    if (spec != spec_) {
      spec_ = spec;
      spec_level_ = ai::level_spec(*state.game(), level_);
      mcts_.reset();
      alphabeta_.reset();
      if (spec_level_.algorithm == ai::Algorithm::kMcts) {
        ai::MctsOptions o = spec_level_.mcts;
        o.seed = options_.seed;
        mcts_ = std::make_unique<ai::Mcts>(o);
      } else {
        alphabeta_ = std::make_unique<ai::AlphaBeta>(spec_level_.alphabeta);
      }
    }
    ai::SearchLimits limits;
    limits.budget = spec_level_.budget;
    limits.movetime_ms = options_.movetime_ms;
    limits.clock = options_.clock;
    return mcts_ ? mcts_->search(state, limits) : alphabeta_->search(state, limits);
  }

 private:
  int level_;
  BotOptions options_;
  std::string spec_;
  ai::LevelSpec spec_level_;
  std::unique_ptr<ai::Mcts> mcts_;
  std::unique_ptr<ai::AlphaBeta> alphabeta_;
};

std::optional<int> level_of(const std::string& key) {
  std::string digits = key;
  if (starts_with(digits, "level")) digits = digits.substr(5);
  if (digits.size() == 1 && digits[0] >= '1' && digits[0] <= '5') return digits[0] - '0';
  return std::nullopt;
}

}  // namespace

std::string bot_names() {
  // The games' own players (GameInfo::builtin_players) with the games that have them, in the
  // registry's order: "classic (biloba)".
  std::vector<std::pair<std::string, std::vector<std::string>>> builtin;
  for (const GameInfo* g : registered_games()) {
    for (const std::string& player : g->builtin_players) {
      auto it = std::find_if(builtin.begin(), builtin.end(),
                             [&](const auto& b) { return b.first == player; });
      if (it == builtin.end()) it = builtin.insert(builtin.end(), {player, {}});
      it->second.push_back(g->name);
    }
  }
  std::string names = "random, greedy, ";
  for (const auto& [player, games] : builtin) names += player + " (" + join(games, ", ") + "), ";
  return names + "1, 2, 3, 4, 5 (or level1..level5)";
}

bool is_bot_name(std::string_view name) {
  const std::string key = to_lower(trim(name));
  if (key == "random" || key == "greedy" || level_of(key).has_value()) return true;
  for (const GameInfo* g : registered_games()) {
    for (const std::string& player : g->builtin_players) {
      if (key == to_lower(player)) return true;
    }
  }
  return false;
}

bool is_bot_for(std::string_view name, const Game& game) {
  const std::string key = to_lower(trim(name));
  if (key == "random" || key == "greedy" || level_of(key).has_value()) return true;
  for (const std::string& player : game.info().builtin_players) {
    if (key == to_lower(player)) return true;
  }
  return false;
}

std::string bot_names_for(const Game& game) {
  std::string names = "random, greedy, ";
  for (const std::string& player : game.info().builtin_players) names += player + ", ";
  return names + "1, 2, 3, 4, 5 (or level1..level5)";
}

std::unique_ptr<Bot> make_bot(std::string_view name, std::uint64_t seed) {
  BotOptions options;
  options.seed = seed;
  return make_bot(name, options);
}

std::unique_ptr<Bot> make_bot(std::string_view name, const BotOptions& options) {
  const std::string key = to_lower(trim(name));
  if (key == "random") return std::make_unique<RandomBot>(options);
  if (key == "greedy") return std::make_unique<GreedyBot>(options);
  if (auto level = level_of(key)) return std::make_unique<LevelBot>(*level, options);
  if (is_bot_name(key)) return std::make_unique<BuiltinBot>(key, options.seed);
  throw OptionError("unknown bot '" + std::string(trim(name)) + "'; bots are: " + bot_names());
}

}  // namespace plateau
