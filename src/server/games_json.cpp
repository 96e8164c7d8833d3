#include "server/games_json.h"

#include "ai/levels.h"
#include "core/registry.h"

namespace plateau {

namespace {

using nlohmann::json;

json option_json(const OptionSpec& o) {
  json j = {{"name", o.name},
            {"type", option_type_name(o.type)},
            {"default", o.default_value},
            {"accepted", o.accepted},
            {"help", o.help}};
  switch (o.type) {
    case OptionType::kInt:
      j["min"] = static_cast<long long>(o.min);
      j["max"] = static_cast<long long>(o.max);
      break;
    case OptionType::kDecimal:
      j["min"] = o.min;
      j["max"] = o.max;
      j["step"] = o.step;
      break;
    case OptionType::kEnum:
    case OptionType::kBool:
      j["choices"] = o.choices;
      break;
  }
  return j;
}

const char* search_name(BotLevel::Search search) {
  switch (search) {
    case BotLevel::Search::kMcts:
      return "mcts";
    case BotLevel::Search::kAlphaBeta:
      return "alpha-beta";
    case BotLevel::Search::kBestReply:
      return "best-reply";
  }
  return "mcts";
}

// Levels 1-5 of `game` as the bots play them (ai/levels.h, generic ladder included).
json ladder_json(const Game& game) {
  json levels = json::array();
  const std::vector<BotLevel> ladder = game.bot_ladder();
  for (int level = ai::kMinLevel; level <= ai::kMaxLevel; ++level) {
    const ai::LevelSpec spec = ai::level_spec(game, level);
    const char* search =
        ladder.empty() ? "mcts" : search_name(ladder[static_cast<std::size_t>(level - 1)].search);
    levels.push_back({{"level", level},
                      {"search", search},
                      {"budget", spec.budget},
                      {"description", spec.description}});
  }
  return levels;
}

json optional_name(const std::string& name) { return name.empty() ? json(nullptr) : json(name); }

}  // namespace

json game_json(const GameInfo& info) {
  json seats = json::array();
  json bots = json::array();
  for (int n = info.min_seats; n <= info.max_seats; ++n) {
    const auto game = make_game_with_seats(info, n);
    json labels = json::array();
    json names = json::array();
    for (int s = 0; s < n; ++s) {
      labels.push_back(game->seat_label(s));
      names.push_back(game->seat_name(s));
    }
    seats.push_back({{"count", n}, {"labels", labels}, {"names", names}});
    bots.push_back({{"seats", n}, {"levels", ladder_json(*game)}});
  }
  json options = json::array();
  for (const auto& o : info.options) options.push_back(option_json(o));
  json presets = json::array();
  for (const auto& p : info.presets) {
    presets.push_back({{"name", p.name}, {"help", p.help}, {"values", p.values}});
  }
  return {{"name", info.name},
          {"title", info.title},
          {"summary", info.summary},
          {"min_seats", info.min_seats},
          {"max_seats", info.max_seats},
          {"seat_count_option", optional_name(info.seat_count_option)},
          {"seat_order_option", optional_name(info.seat_order_option)},
          {"seats", seats},
          {"options", options},
          {"presets", presets},
          {"bots", bots},
          {"builtin_players", info.builtin_players}};
}

json games_json() {
  json j = json::array();
  for (const GameInfo* g : registered_games()) j.push_back(game_json(*g));
  return j;
}

}  // namespace plateau
