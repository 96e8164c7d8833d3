#include "ai/match.h"

#include <atomic>
#include <mutex>
#include <thread>

#include "ai/bot.h"
#include "core/error.h"
#include "core/random.h"
#include "core/record.h"

namespace plateau::ai {

namespace {

std::uint64_t bot_seed(std::uint64_t seed, int game, int seat) {
  std::uint64_t s = seed * 0x100000001B3ull + static_cast<std::uint64_t>(game) * 8 +
                    static_cast<std::uint64_t>(seat);
  return splitmix64(s);
}

GameOutcome play_one(const MatchConfig& config, int index) {
  const Game& game = *config.game;
  const int n = game.num_seats();
  GameOutcome out;
  out.index = index;
  std::vector<std::unique_ptr<Bot>> bots;
  for (int s = 0; s < n; ++s) {
    out.seat_bots.push_back(config.bots[static_cast<std::size_t>((s + index) % n)]);
    BotOptions options;
    options.seed = bot_seed(config.seed, index, s);
    options.movetime_ms = config.movetime_ms;
    bots.push_back(make_bot(out.seat_bots.back(), options));
  }
  auto initial = game.initial_state();
  auto state = initial->clone();
  std::vector<Move> moves;
  Rng opening(bot_seed(config.seed, index / n, 7));
  for (int i = 0; i < config.opening_plies && !state->is_terminal(); ++i) {
    std::vector<Move> legal = state->legal_moves();
    Move m = legal[opening.below(static_cast<std::uint32_t>(legal.size()))];
    state->apply(m);
    moves.push_back(std::move(m));
    ++out.plies;
  }
  while (!state->is_terminal() && out.plies < config.max_plies) {
    Move m = bots[static_cast<std::size_t>(state->current_seat())]->choose_move(*state);
    state->apply(m);
    moves.push_back(std::move(m));
    ++out.plies;
  }
  out.finished = state->is_terminal();
  out.returns = out.finished ? state->returns() : std::vector<double>(n, 1.0 / n);
  RecordHeader header;
  header.seats = out.seat_bots;
  header.extra_tags = {{"Match", "game " + std::to_string(index + 1)}};
  if (!out.finished) header.result = "*";
  out.record = write_record(*initial, moves, header);
  return out;
}

}  // namespace

MatchResult summarize(std::vector<GameOutcome> games) {
  MatchResult result;
  auto stats_of = [&result](const std::string& name) -> BotStats& {
    for (BotStats& b : result.stats) {
      if (b.name == name) return b;
    }
    result.stats.push_back(BotStats{name});
    return result.stats.back();
  };
  for (const GameOutcome& g : games) {
    for (std::size_t s = 0; s < g.seat_bots.size(); ++s) {
      BotStats& b = stats_of(g.seat_bots[s]);
      const double r = g.returns[s];
      ++b.games;
      b.points += r;
      if (r >= 1.0 - 1e-9) {
        ++b.wins;
      } else if (r <= 1e-9) {
        ++b.losses;
      } else {
        ++b.draws;
      }
    }
  }
  if (result.stats.size() == 2) {
    const std::string& first = result.stats[0].name;
    std::vector<double> scores;
    for (const GameOutcome& g : games) {
      double sum = 0.0;
      int pairs = 0;
      for (std::size_t a = 0; a < g.seat_bots.size(); ++a) {
        if (g.seat_bots[a] != first) continue;
        for (std::size_t b = 0; b < g.seat_bots.size(); ++b) {
          if (g.seat_bots[b] == first) continue;
          sum += g.returns[a] > g.returns[b] + 1e-9   ? 1.0
                 : g.returns[a] < g.returns[b] - 1e-9 ? 0.0
                                                      : 0.5;
          ++pairs;
        }
      }
      if (pairs > 0) scores.push_back(sum / pairs);
    }
    result.has_elo = true;
    result.elo = estimate_elo(scores);
  }
  result.games = std::move(games);
  return result;
}

MatchResult run_match(const MatchConfig& config) {
  const int n = config.game->num_seats();
  if (static_cast<int>(config.bots.size()) != n) {
    throw OptionError(config.game->spec() + " has " + std::to_string(n) + " seats: give " +
                      std::to_string(n) + " bots, not " + std::to_string(config.bots.size()));
  }
  for (const std::string& b : config.bots) make_bot(b, 0);  // throws for an unknown name
  std::vector<GameOutcome> games(static_cast<std::size_t>(std::max(0, config.games)));
  std::atomic<int> next{0};
  std::mutex mu;
  int done = 0;
  std::exception_ptr error;
  auto worker = [&] {
    while (true) {
      const int i = next.fetch_add(1);
      if (i >= config.games) return;
      try {
        GameOutcome g = play_one(config, i);
        std::lock_guard<std::mutex> lock(mu);
        games[static_cast<std::size_t>(i)] = std::move(g);
        ++done;
        if (config.progress) config.progress(done, config.games);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mu);
        if (!error) error = std::current_exception();
        next.store(config.games);
        return;
      }
    }
  };
  const int threads = std::max(1, std::min(config.threads, std::max(1, config.games)));
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
  if (error) std::rethrow_exception(error);
  return summarize(std::move(games));
}

}  // namespace plateau::ai
