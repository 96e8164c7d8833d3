#pragma once
// Shared pieces of the `plateau` subcommands.
#include <CLI/CLI.hpp>
#include <stdexcept>
#include <string>

#include "core/record.h"

namespace plateau::cli {

// Bad command-line input: main() prints "plateau: <message>" and exits with status 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The position named by GAME and an optional record (a path, or "-" for standard input).
// Without a record: GAME's start position. With one: the record replayed; GAME must name the
// record's game (its options, if given, must match the record's). Throws UsageError for an
// unreadable file, RecordError/OptionError for bad contents.
ReplayedGame load_position(const std::string& game_spec, const std::string& record_path);

// The error for a list of seats (`what`: "--seats", "BOTS") of `got` entries where `game` has
// another number of seats; it names the option that sets the count: "--seats needs 2 entries
// for biloba, got 3; for 3 seats name the game 'biloba(players=3)'".
std::string seat_count_message(const std::string& what, std::size_t got, const Game& game);

// Whole contents of `path` ("-" = standard input); throws UsageError if it cannot be read.
std::string read_input(const std::string& path);

// Subcommand registration; each lives in its own cmd_*.cpp.
void add_games_command(CLI::App& app);
void add_moves_command(CLI::App& app);
void add_board_command(CLI::App& app);
void add_perft_command(CLI::App& app);
void add_play_command(CLI::App& app);
void add_match_command(CLI::App& app);
void add_analyse_command(CLI::App& app);
void add_solve_command(CLI::App& app);
void add_serve_command(CLI::App& app);
void add_mail_in_command(CLI::App& app);
void add_store_command(CLI::App& app);

}  // namespace plateau::cli
