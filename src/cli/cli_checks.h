#pragma once
// Checks and messages of the `plateau` command line that CLI11 words poorly for a user
// (issue 19 item 4): numeric ranges, unknown subcommands, the version.
#include <CLI/CLI.hpp>
#include <optional>
#include <string>

namespace plateau::cli {

// The version of Plateau, "0.1.0" (CMake's project version).
const char* version();

// An option check: the value must be a whole number in [lo, hi] (decimal, optional sign, no
// spaces). Its error, after CLI11's "NAME: " prefix: "must be a whole number from 1 to 64,
// got 'x'".
CLI::Validator whole_number_in(long long lo, long long hi);

// The same for a real number in [lo, hi] ("must be a number from 0.001 to 86400, got 'x'").
CLI::Validator number_in(double lo, double hi);

// If argv names no subcommand where one is expected (a word before the first option that is
// not a subcommand of the command above it, at any depth), the message to print: "unknown
// command 'gmaes'; did you mean 'games'?", "unknown command 'store cpy'; did you mean 'store
// copy'?" or "unknown command 'xyz'; the commands are games, moves, ...". Else nullopt.
std::optional<std::string> unknown_command(const CLI::App& app, int argc, char** argv);

// `--version` on `app` ("plateau 0.1.0") and that line at the end of the help of `app` and of
// every subcommand registered so far (call after the last add_*_command).
void add_version(CLI::App& app);

}  // namespace plateau::cli
