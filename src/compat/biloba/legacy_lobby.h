#pragma once
// `plateau serve`'s biloba 0.9.3 port (docs/BILOBA_NETWORK.md): the legacy server of
// legacy_server.h on the server's I/O threads, its CPU seats thinking on the lobby's worker
// pool, every game mirrored live as an ordinary lobby table (server/table.h, external tables):
//   * when every seat is filled, a table of game biloba opens, playing, its seats the wire
//     players' names (kind "legacy", tidied by lobby_names.h) and the server's CPU seats (kind
//     "cpu"); it is listed, watchable from every transport, never rated;
//   * each complete turn of the replay is played on the table as it happens (stored like any
//     move: the table is the record);
//   * chat is bridged both ways: a talk-mode line shows at the table under its seat's name, a
//     line said at the table goes to every talk-mode connection as "user: text";
//   * the end: the rules end the table with the result; a player who leaves or the click limit
//     ends it with no result ("a player left the biloba 0.9.3 game", "the biloba 0.9.3 game
//     reached its click limit"); after a restart a table whose game was cut off ends with no
//     result ("the server restarted during the biloba 0.9.3 game").
// Each finished game is also kept in <data_dir>/biloba/ as <id>-<name>.blb (the original's dump)
// and <id>-<name>.record (a Plateau record); game ids continue after the files already there.
#include <cstddef>
#include <string>

#include "server/server.h"

namespace plateau::biloba::net {

struct LegacyPortOptions {
  unsigned short port = 8000;  // 0: no legacy port
  std::string log_file;        // the protocol log, as biloba-server's LOGFILE ("" = none)
  // Clicks kept per game; a game that reaches it ends without a result (the original's games
  // are a few hundred clicks). --biloba-max-clicks
  std::size_t max_clicks = 20'000;
};

// The maker of the legacy port for ServerOptions::extra_listeners (it listens on the server's
// bind address; connections count against the server's connection limits). Its listener
// throws std::runtime_error when the port cannot be used. Call with options.port != 0.
server::ExtraListenerFactory legacy_port(LegacyPortOptions options);

}  // namespace plateau::biloba::net
