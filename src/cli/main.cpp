// The `plateau` command: one subcommand per capability (DESIGN.md §6).
#include <CLI/CLI.hpp>
#include <iostream>

#include "cli/cli_checks.h"
#include "cli/cli_common.h"
#include "core/error.h"
#include "games/register.h"

int main(int argc, char** argv) {
  plateau::register_builtin_games();
  CLI::App app{"Plateau: abstract strategy board games (BohnDuell, Phutball, Biloba)", "plateau"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Help for every subcommand");
  plateau::cli::add_games_command(app);
  plateau::cli::add_moves_command(app);
  plateau::cli::add_board_command(app);
  plateau::cli::add_perft_command(app);
  plateau::cli::add_play_command(app);
  plateau::cli::add_match_command(app);
  plateau::cli::add_analyse_command(app);
  plateau::cli::add_solve_command(app);
  plateau::cli::add_serve_command(app);
  plateau::cli::add_mail_in_command(app);
  plateau::cli::add_store_command(app);
  plateau::cli::add_version(app);
  if (auto message = plateau::cli::unknown_command(app, argc, argv)) {
    std::cerr << "plateau: " << *message << " (try --help)\n";
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "plateau: " << e.what() << " (try --help)\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "plateau: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
