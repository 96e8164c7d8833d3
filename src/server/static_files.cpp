#include "server/static_files.h"

#include <fstream>
#include <sstream>

namespace plateau::server {

namespace {

const char* content_type_of(const std::filesystem::path& path) {
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

constexpr std::uintmax_t kMaxFileBytes = 16u << 20;

}  // namespace

std::optional<StaticFile> find_static_file(const std::filesystem::path& root,
                                           std::string_view target) {
  target = target.substr(0, target.find_first_of("?#"));
  if (target.empty() || target.front() != '/') return std::nullopt;
  if (target.find("..") != std::string_view::npos ||
      target.find('\\') != std::string_view::npos ||
      target.find('\0') != std::string_view::npos) {
    return std::nullopt;
  }
  std::string relative(target.substr(1));
  if (relative.empty()) relative = "index.html";
  const std::filesystem::path path = root / relative;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec) ||
      std::filesystem::file_size(path, ec) > kMaxFileBytes || ec) {
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream body;
  body << in.rdbuf();
  return StaticFile{body.str(), content_type_of(path)};
}

}  // namespace plateau::server
