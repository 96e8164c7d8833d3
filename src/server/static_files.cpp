#include "server/static_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/text.h"

namespace plateau::server {

namespace fs = std::filesystem;

namespace {

const char* content_type_of(const fs::path& path) {
  const std::string ext = path.extension().string();
  if (ext == ".html") return "text/html; charset=utf-8";
  if (ext == ".js" || ext == ".mjs") return "text/javascript; charset=utf-8";
  if (ext == ".css") return "text/css; charset=utf-8";
  if (ext == ".svg") return "image/svg+xml";
  if (ext == ".png") return "image/png";
  if (ext == ".json" || ext == ".map") return "application/json";
  if (ext == ".ico") return "image/x-icon";
  if (ext == ".woff2") return "font/woff2";
  return "application/octet-stream";
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The whole of regular file `path`, opened without following a final symlink (the path is
// canonical, so none is expected: this closes the gap if one appears after the check) and
// without blocking (a FIFO put there after the check must not hang the I/O thread).
std::optional<std::string> read_regular_file(const fs::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  std::optional<std::string> body;
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
      static_cast<std::uintmax_t>(st.st_size) <= kMaxStaticFileBytes) {
    std::string data(static_cast<std::size_t>(st.st_size), '\0');
    std::size_t done = 0;
    while (done < data.size()) {
      const ssize_t n = ::read(fd, data.data() + done, data.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      done += static_cast<std::size_t>(n);
    }
    data.resize(done);  // a file that shrank meanwhile: what was there
    body = std::move(data);
  }
  ::close(fd);
  return body;
}

}  // namespace

std::optional<std::string> decode_target_path(std::string_view path) {
  std::string out;
  out.reserve(path.size());
  for (std::size_t i = 0; i < path.size(); ++i) {
    char c = path[i];
    if (c == '%') {
      if (i + 2 >= path.size()) return std::nullopt;  // needs two more characters
      const int hi = hex_value(path[i + 1]);
      const int lo = hex_value(path[i + 2]);
      if (hi < 0 || lo < 0) return std::nullopt;
      c = static_cast<char>(hi * 16 + lo);
      i += 2;
    }
    if (c == '\0' || c == '\\') return std::nullopt;
    out.push_back(c);
  }
  return out;
}

bool path_within(const fs::path& path, const fs::path& dir) {
  auto p = path.begin();
  for (auto d = dir.begin(); d != dir.end(); ++d, ++p) {
    // A trailing separator of `dir` shows up as an empty last component.
    if (d->empty() && std::next(d) == dir.end()) return true;
    if (p == path.end() || *p != *d) return false;
  }
  return true;
}

std::optional<StaticFile> find_static_file(const fs::path& root, std::string_view target,
                                           const fs::path& forbidden) {
  target = target.substr(0, target.find_first_of("?#"));
  if (target.empty() || target.front() != '/') return std::nullopt;
  const auto decoded = decode_target_path(target);
  if (!decoded || !valid_utf8(*decoded)) return std::nullopt;

  std::error_code ec;
  const fs::path real_root = fs::canonical(root, ec);
  if (ec) return std::nullopt;
  // Segment by segment: "//etc/passwd" gives the segments "etc" and "passwd", both appended to
  // the root; an absolute path can never take the root's place.
  fs::path candidate = real_root;
  for (std::string_view segment : split(*decoded, '/')) {
    if (segment.empty() || segment == ".") continue;
    if (segment == "..") return std::nullopt;
    candidate /= fs::path(std::string(segment));
  }
  if (candidate == real_root) candidate /= "index.html";

  // canonical() resolves every symlink and fails for a missing file.
  const fs::path real = fs::canonical(candidate, ec);
  if (ec || !path_within(real, real_root)) return std::nullopt;
  if (!forbidden.empty()) {
    // The data directory exists while the server runs; when it cannot be resolved, serve
    // nothing rather than guess.
    const fs::path real_forbidden = fs::weakly_canonical(forbidden, ec);
    if (ec || path_within(real, real_forbidden)) return std::nullopt;
  }
  if (!fs::is_regular_file(real, ec) || ec) return std::nullopt;
  auto body = read_regular_file(real);
  if (!body) return std::nullopt;
  return StaticFile{std::move(*body), content_type_of(candidate)};
}

}  // namespace plateau::server
