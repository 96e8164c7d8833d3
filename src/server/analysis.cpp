#include "server/analysis.h"

#include <chrono>
#include <cmath>
#include <cstdio>

#include "ai/analysis_line.h"
#include "ai/bot.h"
#include "core/text.h"
#include "server/command.h"

namespace plateau::server {

using nlohmann::json;

namespace {

// Three decimals, as the text shows them: the JSON and the text agree exactly.
double rounded(double v) { return std::round(v * 1000.0) / 1000.0; }

std::string fixed3(double v, bool sign) {
  char buf[32];
  std::snprintf(buf, sizeof buf, sign ? "%+.3f" : "%.3f", v);
  return buf;
}

}  // namespace

std::string analysis_level(std::string_view word, const Game& game) {
  const std::string key = to_lower(trim(word));
  std::string digits = starts_with(key, "level") ? key.substr(5) : key;
  if (digits.size() == 1 && digits[0] >= '1' && digits[0] <= '5') return digits;
  for (const std::string& player : game.info().builtin_players) {
    if (key == to_lower(player)) return to_lower(player);
  }
  std::string accepted = "1 to 5";
  for (const std::string& player : game.info().builtin_players) accepted += " or " + player;
  throw CommandError("bad level '" + std::string(word.substr(0, 20)) + "' for " + game.name() +
                     ": levels are " + accepted);
}

Event analyse_position(const AnalysisRequest& r) {
  const State& state = *r.position;
  const Game& game = *state.game();
  BotOptions options;
  options.seed = 0;
  options.movetime_ms = r.movetime_ms;
  auto bot = make_bot(r.level, options);
  const auto start = std::chrono::steady_clock::now();
  const ai::SearchResult result = bot->analyse(state);
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::steady_clock::now() - start)
                      .count();
  const auto line = ai::principal_line(state, result.pv, kMaxAnalysisLine);
  const std::string label = game.seat_label(state.current_seat());
  // A game's own player (Biloba's classic) picks a move by rule and says nothing of its worth.
  const bool evaluated = !result.info.empty();
  const std::string best = state.move_to_string(result.best);
  const std::string text_line = ai::line_text(game, line);

  json data = {{"game", r.game},
               {"board", r.board},
               {"ply", r.ply},
               {"level", r.level},
               {"seat", label},
               {"best", best},
               {"exact", result.exact},
               {"nodes", result.iterations},
               {"ms", ms},
               {"line_text", text_line}};
  std::string text = "Analysis of " + r.game + " " + std::to_string(r.board) + " at ply " +
                     std::to_string(r.ply) + " (level " + r.level + "): " + label +
                     " to move; best " + best;
  if (evaluated) {
    const double score = rounded(result.value);
    const double bar = rounded(2.0 * result.value - 1.0);
    data["score"] = score;
    data["unit"] = "expected return";
    data["bar"] = bar;
    text += "; score " + fixed3(score, false) + " (expected return for " + label;
    if (result.exact) text += ", exact";
    // The solver's own value (BohnDuell: the final margin in balls with perfect play).
    if (result.exact && starts_with(result.info, "exact value")) {
      data["exact_value"] = result.exact_value;
      text += ", value " + std::to_string(result.exact_value);
    }
    text += "; bar " + fixed3(bar, true) + ")";
  } else {
    data["score"] = nullptr;
    data["unit"] = "";
    data["bar"] = 0.0;
    text += "; no evaluation (" + r.level + " plays by rule)";
  }
  json moves = json::array();
  for (const auto& m : line) {
    moves.push_back(
        {{"ply", m.ply}, {"seat", m.label}, {"move", m.move}, {"position", m.position}});
  }
  data["line"] = std::move(moves);
  text += "; line " + (text_line.empty() ? std::string("-") : text_line) + "; " +
          std::to_string(result.iterations) + " nodes, " + std::to_string(ms) + " ms.";
  data["text"] = text;
  return Event{"analysis", std::move(data), {}};
}

}  // namespace plateau::server
