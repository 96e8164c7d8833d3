#pragma once
// The WebSocket Origin check (issue 12, item 11): a browser sends the page's origin with every
// WebSocket upgrade, and a page of another site must not open a session with the visitor's
// cookies or network position (cross-site WebSocket hijacking). Clients that are not browsers
// send no Origin and are not concerned.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace plateau::server {

// `origin` ("scheme://host[:port]") in a canonical form for comparison: ASCII lower case, without
// a trailing '/' and without the scheme's default port (":80" for http, ":443" for https).
std::string normalize_origin(std::string_view origin);

// True if a WebSocket upgrade carrying `Origin: origin` may proceed: `origin` is the origin the
// request was served on ("https://" when `tls`, else "http://", followed by the request's Host
// header `host`), or one of `allowed` (--allow-origin values). Compared after normalize_origin.
// An absent Origin header is the caller's case (allowed); "null" matches only if allowed.
bool websocket_origin_allowed(std::string_view origin, std::string_view host, bool tls,
                              const std::vector<std::string>& allowed);

// Why `value` is not a usable --allow-origin ("scheme://host[:port]" with scheme http or https
// and no path), or nullopt when it is.
std::optional<std::string> bad_allowed_origin(std::string_view value);

}  // namespace plateau::server
