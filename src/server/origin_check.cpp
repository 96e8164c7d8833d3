#include "server/origin_check.h"

#include "core/text.h"

namespace plateau::server {

std::string normalize_origin(std::string_view origin) {
  std::string out = to_lower(trim(origin));
  while (!out.empty() && out.back() == '/') out.pop_back();
  auto strip_port = [&out](std::string_view scheme, std::string_view port) {
    if (starts_with(out, scheme) && out.size() > scheme.size() + port.size() &&
        out.compare(out.size() - port.size(), port.size(), port) == 0) {
      out.resize(out.size() - port.size());
    }
  };
  strip_port("http://", ":80");
  strip_port("https://", ":443");
  return out;
}

bool websocket_origin_allowed(std::string_view origin, std::string_view host, bool tls,
                              const std::vector<std::string>& allowed) {
  const std::string wanted = normalize_origin(origin);
  if (!host.empty() &&
      wanted == normalize_origin(std::string(tls ? "https://" : "http://") + std::string(host))) {
    return true;
  }
  for (const auto& a : allowed) {
    if (wanted == normalize_origin(a)) return true;
  }
  return false;
}

std::optional<std::string> bad_allowed_origin(std::string_view value) {
  const std::string v = to_lower(trim(value));
  std::string_view rest;
  if (starts_with(v, "http://")) {
    rest = std::string_view(v).substr(7);
  } else if (starts_with(v, "https://")) {
    rest = std::string_view(v).substr(8);
  } else {
    return "an origin starts with http:// or https://";
  }
  if (!rest.empty() && rest.back() == '/') rest.remove_suffix(1);  // as browsers never send it
  if (rest.empty()) return "an origin names a host";
  if (rest.find_first_of("/?#@ ") != std::string_view::npos) {
    return "an origin is scheme://host[:port], without a path, user or spaces";
  }
  return std::nullopt;
}

}  // namespace plateau::server
