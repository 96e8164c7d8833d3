#pragma once
// A subcommand's options read from an INI file with CLI11's own parser (CLI::ConfigINI), for
// `plateau serve --config FILE` (issue 19 item 3). CLI11 2.1 reads a config file only for the top
// level app, so the subcommand applies it itself, after its command line was parsed.
#include <CLI/CLI.hpp>
#include <string>

namespace plateau::cli {

// Sets, from the INI file `path`, every option of `cmd` that the command line left unset.
// Keys are long option names without "--" ("http-port = 8080"), at the top of the file or in a
// [serve] section named like `cmd`; a list is "key = [a, b]" or the key repeated. Each value goes
// through the option's own checks, as if given on the command line.
// Errors (nothing applied after the first one): CLI::FileError when the file cannot be read;
// CLI::ConfigError "unknown key 'KEY' in FILE" for a key that is no option of `cmd` (or an
// option that cannot be configured: --help, --config), "unknown section 'NAME' in FILE" for a
// section other than [serve]; CLI::ValidationError /
// CLI::ConversionError for a bad value, CLI::RequiresError "--tls-cert requires --tls-key" for an
// option set (in the file or on the command line) without one it needs, as on the command line.
void apply_config_file(CLI::App& cmd, const std::string& path);

}  // namespace plateau::cli
