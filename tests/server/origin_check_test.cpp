// The WebSocket Origin check (issue 12, item 11): only the served origin and --allow-origin
// values may open a WebSocket from a browser page.
#include "server/origin_check.h"

#include <gtest/gtest.h>

namespace plateau::server {
namespace {

TEST(OriginCheck, NormalizesCaseSlashAndDefaultPorts) {
  EXPECT_EQ(normalize_origin("HTTP://Example.ORG"), "http://example.org");
  EXPECT_EQ(normalize_origin("https://example.org/"), "https://example.org");
  EXPECT_EQ(normalize_origin("http://example.org:80"), "http://example.org");
  EXPECT_EQ(normalize_origin("https://example.org:443"), "https://example.org");
  EXPECT_EQ(normalize_origin("http://example.org:443"), "http://example.org:443");
  EXPECT_EQ(normalize_origin("http://127.0.0.1:8080"), "http://127.0.0.1:8080");
}

TEST(OriginCheck, AllowsTheServedOriginOnly) {
  const std::vector<std::string> none;
  EXPECT_TRUE(websocket_origin_allowed("http://127.0.0.1:8080", "127.0.0.1:8080", false, none));
  EXPECT_TRUE(websocket_origin_allowed("http://games.example", "Games.Example", false, none));
  EXPECT_TRUE(websocket_origin_allowed("https://games.example", "games.example:443", true, none));
  EXPECT_TRUE(websocket_origin_allowed("http://[::1]:8080", "[::1]:8080", false, none));
  // Another site, another port, the other scheme, no Host to compare with, a sandboxed page.
  EXPECT_FALSE(websocket_origin_allowed("http://evil.example", "127.0.0.1:8080", false, none));
  EXPECT_FALSE(websocket_origin_allowed("http://127.0.0.1:9090", "127.0.0.1:8080", false, none));
  EXPECT_FALSE(websocket_origin_allowed("http://games.example", "games.example", true, none));
  EXPECT_FALSE(websocket_origin_allowed("https://games.example", "games.example", false, none));
  EXPECT_FALSE(websocket_origin_allowed("http://games.example", "", false, none));
  EXPECT_FALSE(websocket_origin_allowed("null", "games.example", false, none));
  // A look-alike that only starts the same way.
  EXPECT_FALSE(websocket_origin_allowed("http://games.example.evil", "games.example", false, none));
}

TEST(OriginCheck, AllowsListedOrigins) {
  const std::vector<std::string> allowed{"https://play.example.org", "http://localhost:5173/"};
  EXPECT_TRUE(
      websocket_origin_allowed("https://play.example.org", "10.0.0.5:8080", false, allowed));
  EXPECT_TRUE(websocket_origin_allowed("https://play.example.org:443", "x", false, allowed));
  EXPECT_TRUE(websocket_origin_allowed("http://localhost:5173", "127.0.0.1:8080", false, allowed));
  EXPECT_FALSE(websocket_origin_allowed("http://play.example.org", "x", false, allowed));
  EXPECT_FALSE(websocket_origin_allowed("https://evil.example", "x", false, allowed));
}

TEST(OriginCheck, ValidatesAllowOriginValues) {
  EXPECT_EQ(bad_allowed_origin("https://play.example.org"), std::nullopt);
  EXPECT_EQ(bad_allowed_origin("http://localhost:5173/"), std::nullopt);
  EXPECT_EQ(bad_allowed_origin("play.example.org"), "an origin starts with http:// or https://");
  EXPECT_EQ(bad_allowed_origin("https://"), "an origin names a host");
  EXPECT_EQ(bad_allowed_origin("https://play.example.org/lobby"),
            "an origin is scheme://host[:port], without a path, user or spaces");
}

}  // namespace
}  // namespace plateau::server
