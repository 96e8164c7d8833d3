#pragma once
// The browser client's built files (web/dist) served over HTTP: "/" is index.html, other paths
// map to files under the root. Paths with "..", backslashes or NUL are refused; only regular
// files under the root are served.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace plateau::server {

struct StaticFile {
  std::string body;
  const char* content_type;  // e.g. "text/html; charset=utf-8"
};

// The file for request target `target` (query string ignored) under `root`, or nullopt when
// there is none (root missing, bad path, not a regular file, larger than 16 MiB).
std::optional<StaticFile> find_static_file(const std::filesystem::path& root,
                                           std::string_view target);

}  // namespace plateau::server
