#pragma once
// The browser client's built files (web/dist) served over HTTP (issue 12, item 1).
//
// Safe by construction: the request path is percent-decoded strictly, split into segments, and
// each segment is appended to the web root (so no segment can replace the root, as an absolute
// path would); the result is canonicalised (every symlink resolved) and served only when it is a
// regular file whose canonical path lies inside the canonical web root and outside the data
// directory. Everything else is "no such file" (the HTTP session answers 404).
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace plateau::server {

struct StaticFile {
  std::string body;
  const char* content_type;  // e.g. "text/html; charset=utf-8"
};

// Files larger than this are not served (the built client's largest is a few hundred KiB).
inline constexpr std::uintmax_t kMaxStaticFileBytes = 16u << 20;

// The percent-decoding of the path part of a request target (RFC 3986 §2.1: "%XX" with two hex
// digits is the byte XX; '+' is a plain '+'). nullopt when an escape is malformed ("%", "%4",
// "%zz"), or when the path holds a NUL or a backslash, raw or decoded.
std::optional<std::string> decode_target_path(std::string_view path);

// True if the lexically normal path `path` is `dir` or lies under it (component by component:
// "/srv/web2" is not under "/srv/web"). Both should be canonical.
bool path_within(const std::filesystem::path& path, const std::filesystem::path& dir);

// The file for request target `target` (query string and fragment ignored) under `root`, or
// nullopt when there is none: root missing, target not starting with '/', bad escape, a ".."
// segment, a file that is missing, not regular (directory, device, FIFO), outside the root once
// symlinks are resolved, larger than kMaxStaticFileBytes, or inside `forbidden` (the data
// directory: never served, even when the root contains it; empty = no such directory).
// "/" is root/index.html.
std::optional<StaticFile> find_static_file(const std::filesystem::path& root,
                                           std::string_view target,
                                           const std::filesystem::path& forbidden = {});

}  // namespace plateau::server
