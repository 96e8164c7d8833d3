// decode_ws_message: what the WebSocket transport runs for each received text message.
#include "server/ws_message.h"

#include <gtest/gtest.h>

namespace plateau::server {
namespace {

const char* const kBadJson = "bad JSON command: expected {\"cmd\": \"LINE\", \"id\": N}";

TEST(WsMessage, PlainTextIsTheLine) {
  const WsRequest r = decode_ws_message("move 101 S4");
  EXPECT_EQ(r.line, "move 101 S4");
  EXPECT_EQ(r.id, -1);
  EXPECT_EQ(r.error, "");
  EXPECT_EQ(decode_ws_message("").line, "");
  EXPECT_EQ(decode_ws_message(" {\"cmd\":\"who\"}").line, " {\"cmd\":\"who\"}");
}

TEST(WsMessage, JsonCommandWithId) {
  const WsRequest r = decode_ws_message(R"({"cmd": "who", "id": 42, "extra": [1]})");
  EXPECT_EQ(r.line, "who");
  EXPECT_EQ(r.id, 42);
  EXPECT_EQ(r.error, "");
  EXPECT_EQ(decode_ws_message(R"({"cmd":"who","id":"7"})").id, -1);
  EXPECT_EQ(decode_ws_message(R"({"cmd":"who","id":1.5})").id, -1);
  EXPECT_EQ(decode_ws_message(R"({"cmd":"chat 101 \u00e9t\u00e9"})").line, "chat 101 \xc3\xa9t\xc3\xa9");
}

TEST(WsMessage, BadJsonIsAnError) {
  for (const char* text : {"{", "{\"cmd\": 5}", "{\"id\": 1}", "{\"cmd\": \"a\"} x",
                           "{\"cmd\": \"\xff\"}"}) {
    const WsRequest r = decode_ws_message(text);
    EXPECT_EQ(r.error, kBadJson) << text;
    EXPECT_EQ(r.line, "") << text;
    EXPECT_EQ(r.id, -1) << text;
  }
}

}  // namespace
}  // namespace plateau::server
