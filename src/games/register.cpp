#include "games/register.h"

#include <mutex>

#include "core/registry.h"
#include "games/biloba/biloba_game.h"
#include "games/bohnduell/bohnduell_game.h"
#include "games/phutball/phutball_game.h"

namespace plateau {

namespace {

template <class GameT, class InfoFn>
void add(InfoFn info) {
  register_game(info(), [](const OptionValues& options) -> std::shared_ptr<const Game> {
    return std::make_shared<GameT>(options);
  });
}

}  // namespace

void register_builtin_games() {
  static std::once_flag once;
  std::call_once(once, [] {
    add<biloba::BilobaGame>(biloba::game_info);
    add<bohnduell::BohnDuellGame>(bohnduell::game_info);
    add<phutball::PhutballGame>(phutball::game_info);
  });
}

}  // namespace plateau
