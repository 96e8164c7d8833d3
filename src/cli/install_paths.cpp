#include "cli/install_paths.h"

#include <system_error>

// The installed web client relative to the directory of the executable; set by CMakeLists.txt
// from GNUInstallDirs (CMAKE_INSTALL_BINDIR to CMAKE_INSTALL_DATADIR/plateau/web).
#ifndef PLATEAU_BIN_TO_WEB
#define PLATEAU_BIN_TO_WEB "../share/plateau/web"
#endif

namespace plateau::cli {

std::filesystem::path default_web_dir() {
  const std::filesystem::path build_tree = "web/dist";
  std::error_code ec;
  if (std::filesystem::is_directory(build_tree, ec)) return build_tree;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    auto installed = (exe.parent_path() / PLATEAU_BIN_TO_WEB).lexically_normal();
    if (std::filesystem::is_directory(installed, ec)) return installed;
  }
  return build_tree;
}

}  // namespace plateau::cli
