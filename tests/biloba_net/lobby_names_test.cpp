// Names of biloba 0.9.3 network players as the lobby keeps them (compat/biloba/lobby_names.h).
#include "compat/biloba/lobby_names.h"

#include <gtest/gtest.h>

namespace plateau::biloba::net {
namespace {

TEST(LobbyNames, CommasAndControlCharactersBecomeSpaces) {
  // A comma would split the record's Seats tag into one seat too many.
  EXPECT_EQ(lobby_names({"Ann, the 2nd", "Bob\n\tB.", "  Zoé  "}),
            (std::vector<std::string>{"Ann the 2nd", "Bob B.", "Zoé"}));
}

TEST(LobbyNames, EmptyNamesGetTheSeatNumber) {
  EXPECT_EQ(lobby_names({"", ",,,", "Cy"}),
            (std::vector<std::string>{"Player 1", "Player 2", "Cy"}));
}

TEST(LobbyNames, LongNamesAreCutWithoutSplittingACharacter) {
  // 39 ASCII bytes then "é" (2 bytes): byte 40 would fall inside the "é".
  const std::string name = std::string(39, 'a') + "é" + "xyz";
  EXPECT_EQ(lobby_names({name}), (std::vector<std::string>{std::string(39, 'a')}));
  EXPECT_EQ(lobby_names({std::string(60, 'b')}), (std::vector<std::string>{std::string(40, 'b')}));
}

TEST(LobbyChat, ControlCharactersBecomeSpacesAndEndsAreTrimmed) {
  // C0, DEL and C1 (U+0080..U+009F, as Latin-1 bytes 0x80..0x9F decode to): a line from the
  // wire must not carry terminal controls to the lobby's text clients.
  EXPECT_EQ(lobby_chat("  hi\x1b[2J there\x7f\xC2\x9B, you \n"), "hi [2J there  , you");
  EXPECT_EQ(lobby_chat("Zo\xC3\xA9, \xC2\xA0ok"), "Zo\xC3\xA9, \xC2\xA0ok");
  EXPECT_EQ(lobby_chat(" \t "), "");
}

}  // namespace
}  // namespace plateau::biloba::net
