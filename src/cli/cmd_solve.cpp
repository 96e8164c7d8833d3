// `plateau solve bohnduell --supply N [--out FILE]`: the exact value of every position reachable
// from the start (specs/bohnduell.md §11), the start value and best first moves, and the table
// file that lets level 5 play perfectly. `--verify K` then checks level 5 against the table on K
// random reachable positions (the measurement of docs/AI.md).
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "ai/bot.h"
#include "cli/cli_checks.h"
#include "cli/cli_common.h"
#include "cli/progress.h"
#include "core/registry.h"
#include "core/text.h"
#include "games/bohnduell/bohnduell_game.h"
#include "games/bohnduell/bohnduell_notation.h"
#include "games/bohnduell/bohnduell_solver.h"

namespace plateau::cli {

namespace {

struct SolveOptions {
  std::string game;
  int supply = 0;
  std::string out;
  std::string table;
  bool no_save = false;
  int verify = 0;
  std::uint64_t seed = 1;
};

// Reachable positions estimated from the measured shares of §11.2 (for the progress bar only).
std::uint64_t estimated_reachable(int n) {
  static const double kShare[][2] = {{1, 0.005},  {8, 0.021},  {10, 0.054}, {12, 0.088},
                                     {15, 0.128}, {16, 0.139}, {18, 0.159}, {20, 0.176},
                                     {22, 0.190}, {63, 0.30}};
  double share = 0.3;
  for (std::size_t i = 0; i + 1 < std::size(kShare); ++i) {
    if (n >= kShare[i][0] && n <= kShare[i + 1][0]) {
      const double t = (n - kShare[i][0]) / (kShare[i + 1][0] - kShare[i][0]);
      share = kShare[i][1] + t * (kShare[i + 1][1] - kShare[i][1]);
      break;
    }
  }
  return static_cast<std::uint64_t>(share *
                                    static_cast<double>(bohnduell::ValueTable::byte_count(n)));
}

std::string megabytes(std::uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f MB", static_cast<double>(bytes) / 1e6);
  return buf;
}

// Level 5 against the table on `count` positions drawn from random games.
void verify(const bohnduell::BohnDuellGame& game, const bohnduell::ValueTable& table, int count,
            std::uint64_t seed) {
  using namespace bohnduell;
  Rng rng(seed);
  BotOptions bo;
  bo.seed = seed;
  auto bot = make_bot("5", bo);
  ProgressBar bar("verifying", static_cast<std::uint64_t>(count), "positions");
  int agree = 0;
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < count; ++i) {
    // A uniformly chosen non-final position of a uniformly random game.
    std::vector<Position> line;
    Position pos = start_position(game.rules());
    while (!pos.over) {
      line.push_back(pos);
      const unsigned mask = legal_mask(game.rules(), pos);
      int codes[kNumMoveCodes];
      int n = 0;
      for (int c = 0; c < kNumMoveCodes; ++c) {
        if (mask & (1u << c)) codes[n++] = c;
      }
      apply_move(game.rules(), pos, codes[rng.below(static_cast<std::uint32_t>(n))]);
    }
    const Position& p = line[rng.below(static_cast<std::uint32_t>(line.size()))];
    auto state = game.make_state(p);
    const Move m = bot->choose_move(*state);
    const int v = *table.get(table.index(p));
    Position next = p;
    const int mover = p.to_move;
    apply_move(game.rules(), next, m[0]);
    const int gain = next.side[mover].store - p.side[mover].store;
    const int mv = next.over               ? gain + terminal_value(game.rules(), next, mover)
                   : next.to_move == mover ? gain + *table.get(table.index(next))
                                           : gain - *table.get(table.index(next));
    if (mv == v) {
      ++agree;
    } else {
      std::cerr << "\nlevel 5 plays " << move_token(m[0]) << " (" << mv << ") in "
                << format_position(p) << " whose value is " << v << "\n";
    }
    bar.update(static_cast<std::uint64_t>(i + 1));
  }
  bar.finish(static_cast<std::uint64_t>(count));
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "level 5 agrees with the exact value on " << agree << " of " << count
            << " random reachable positions (" << secs << " s)\n";
  if (agree != count) throw UsageError("level 5 disagreed with the solver");
}

void run_solve(const SolveOptions& opt) {
  using namespace bohnduell;
  std::string spec = opt.game;
  auto base = make_game(spec);
  if (base->name() != "bohnduell") {
    throw UsageError("no exact solver for " + base->name() + ": only bohnduell can be solved");
  }
  if (opt.supply > 0) {
    const std::string opts = base->options_string();
    spec =
        "bohnduell(supply=" + std::to_string(opt.supply) + (opts.empty() ? "" : "," + opts) + ")";
    // A supply given in GAME too is overridden by --supply (later values win).
    if (opts.find("supply=") != std::string::npos) {
      std::string rest;
      for (std::string_view part : split(opts, ',')) {
        if (!starts_with(part, "supply=")) rest += "," + std::string(part);
      }
      spec = "bohnduell(supply=" + std::to_string(opt.supply) + rest + ")";
    }
  }
  auto game_base = make_game(spec);
  auto game = std::dynamic_pointer_cast<const BohnDuellGame>(game_base);
  const Rules& rules = game->rules();
  const int n = rules.supply;

  std::shared_ptr<ValueTable> table;
  auto t0 = std::chrono::steady_clock::now();
  if (!opt.table.empty()) {
    table = ValueTable::load(opt.table);
    if (rules_key(table->rules()) != rules_key(rules)) {
      throw UsageError("table '" + opt.table + "' is for " + rules_key(table->rules()) + ", not " +
                       rules_key(rules));
    }
    std::cout << "Loaded " << opt.table << " (" << rules_key(rules) << ")\n";
  } else {
    const std::uint64_t bytes = ValueTable::byte_count(n);
    const std::uint64_t index_bytes =
        static_cast<std::uint64_t>(n + 1) * (n + 1) * (n + 1) * (n + 1) * (n + 1) * 4;
    std::cout << "Solving " << game->spec() << ": " << ValueTable::side_count(n)
              << " side tuples, table " << bytes << " bytes; memory bound "
              << megabytes(bytes + index_bytes) << " (table " << megabytes(bytes) << " + index "
              << megabytes(index_bytes) << ")\n"
              << std::flush;
    table = std::make_shared<ValueTable>(rules);
    ProgressBar bar("solving", estimated_reachable(n), "positions (total estimated)");
    std::uint64_t solved = 0;
    solve(
        *table, start_position(rules), [&bar](std::uint64_t k) { bar.update(k); }, &solved);
    bar.finish(solved);
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::cout << "Reachable positions: " << solved << " (" << secs << " s)\n";
  }
  const Position start = start_position(rules);
  ExactSearcher exact(rules, table, 0);
  auto values = exact.move_values(start);
  const int root = *table->get(table->index(start));
  std::cout << "Start value (first player's final margin): " << root << "\n";
  std::vector<std::string> listed;
  std::vector<std::string> best;
  int i = 0;
  for (int code = 0; code < kNumMoveCodes; ++code) {
    if (!is_legal(rules, start, 0, code)) continue;
    const int v = (*values)[static_cast<std::size_t>(i++)];
    listed.push_back(move_token(code) + " " + std::to_string(v));
    if (v == root) best.push_back(move_token(code));
  }
  std::cout << "Move values: " << join(listed, ", ") << "\n";
  std::cout << "Best first moves: " << join(best, " ") << "\n";

  if (opt.table.empty() && !opt.no_save) {
    const std::string path = opt.out.empty() ? table_path(rules) : opt.out;
    const auto dir = std::filesystem::path(path).parent_path();
    if (!dir.empty()) std::filesystem::create_directories(dir);
    table->save(path);
    std::cout << "Table written to " << path << " (" << megabytes(table->size() + 4096) << ")\n";
  }
  register_table(table);
  if (opt.verify > 0) verify(*game, *table, opt.verify, opt.seed);
}

}  // namespace

void add_solve_command(CLI::App& app) {
  auto opt = std::make_shared<SolveOptions>();
  auto* cmd = app.add_subcommand("solve", "Solve a game exactly (BohnDuell) and write its table");
  cmd->add_option("GAME", opt->game, "Game spec, e.g. bohnduell or 'bohnduell(steal_scope=any)'")
      ->required();
  cmd->add_option("--supply", opt->supply, "Starting supply N (overrides GAME's)")
      ->check(whole_number_in(1, 63));
  cmd->add_option("--out", opt->out,
                  "Table file to write (default: the table directory, where level 5 finds it; "
                  "$PLATEAU_TABLES or ~/.local/share/plateau/tables)");
  cmd->add_flag("--no-save", opt->no_save, "Do not write the table");
  cmd->add_option("--table", opt->table, "Load this table instead of solving");
  cmd->add_option("--verify", opt->verify,
                  "Then check level 5 against the table on this many random reachable positions")
      ->check(whole_number_in(0, 100000000));
  cmd->add_option("--seed", opt->seed, "Seed of the random positions and the bot")
      ->capture_default_str();
  cmd->footer("Example: plateau solve bohnduell --supply 12 --no-save");
  cmd->callback([opt] { run_solve(*opt); });
}

}  // namespace plateau::cli
