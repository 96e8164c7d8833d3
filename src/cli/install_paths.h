#pragma once
// Where an installed `plateau` finds its files (issue 19: installed the Debian way).
#include <filesystem>

namespace plateau::cli {

// The default `plateau serve --web-dir`: "web/dist" (the build tree's browser client, relative to
// the working directory) when that directory exists, else the installed client next to the
// running executable (BINDIR/../share/plateau/web for the CMake install rules, i.e.
// /usr/share/plateau/web with --prefix /usr; found from /proc/self/exe so that an install under
// any prefix or DESTDIR works), else "web/dist" (the server then answers / with 404).
std::filesystem::path default_web_dir();

// The default `plateau serve --config`: /etc/plateau/plateau.ini (Debian's place; read only if it
// exists, while a --config given on the command line must exist).
inline constexpr const char* kDefaultConfigFile = "/etc/plateau/plateau.ini";

}  // namespace plateau::cli
