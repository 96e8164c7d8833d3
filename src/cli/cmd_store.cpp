// `plateau store copy --from URL --to URL` (docs/STORE.md): moves a store between SQLite and
// PostgreSQL (store_copy.h does the work).
#include <iostream>

#include "cli/cli_common.h"
#include "cli/store_copy.h"
#include "store/store_url.h"

namespace plateau::cli {

void add_store_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("store", "Manage the server's database");
  cmd->require_subcommand(1);
  auto* copy = cmd->add_subcommand(
      "copy",
      "Copy every row of a store into an empty one (SQLite <-> PostgreSQL) and check the copy "
      "(rows equal, every game replayed); stop the server first");
  auto from = std::make_shared<std::string>();
  auto to = std::make_shared<std::string>();
  auto valid = [](const std::string& url) { return store::bad_store_url(url); };
  copy->add_option("--from", *from, "Store to read: sqlite:PATH or postgresql://...")
      ->required()
      ->check(valid);
  copy->add_option("--to", *to, "Empty store to write: sqlite:PATH or postgresql://...")
      ->required()
      ->check(valid);
  copy->callback([from, to] {
    const CopyReport r = copy_store(*from, *to);
    std::cout << "copied " << store::printable_store_url(*from) << " to "
              << store::printable_store_url(*to) << "\n"
              << "rows: accounts=" << r.accounts << " ratings=" << r.ratings
              << " counters=" << r.counters << " tables=" << r.tables << " moves=" << r.moves
              << " chat=" << r.chat << " events=" << r.events << " tokens=" << r.tokens
              << " mail=" << r.mail << " vacations=" << r.vacations
              << " mail_seen=" << r.mail_seen << " nodes=" << r.nodes << "\n"
              << "verified: every row equal; games replayed=" << r.games_replayed
              << " (tables in set-up=" << r.games_in_setup << ")\n";
  });
}

}  // namespace plateau::cli
