#include <gtest/gtest.h>

#include "core/random.h"
#include "core/text.h"

namespace plateau {
namespace {

TEST(Text, TrimSplitJoin) {
  EXPECT_EQ(trim("  a b \t\n"), "a b");
  EXPECT_EQ(trim(""), "");
  EXPECT_EQ(split("a,,b", ','), (std::vector<std::string_view>{"a", "", "b"}));
  EXPECT_EQ(split("", ','), (std::vector<std::string_view>{""}));
  EXPECT_EQ(split_ws("  a  b\tc \n"), (std::vector<std::string_view>{"a", "b", "c"}));
  EXPECT_EQ(join({"x", "y", "z"}, ", "), "x, y, z");
  EXPECT_EQ(to_upper("h10-h13"), "H10-H13");
  EXPECT_EQ(to_lower("E7-E6"), "e7-e6");
}

TEST(Text, Utf8Validation) {
  EXPECT_TRUE(valid_utf8(""));
  EXPECT_TRUE(valid_utf8("plain ASCII"));
  EXPECT_TRUE(valid_utf8("Andr\xC3\xA9"));          // é
  EXPECT_TRUE(valid_utf8("\xE2\x82\xAC"));           // €
  EXPECT_TRUE(valid_utf8("\xF0\x9F\x8E\xB2"));       // 🎲
  EXPECT_TRUE(valid_utf8("\xF4\x8F\xBF\xBF"));       // U+10FFFF
  EXPECT_FALSE(valid_utf8("\xFF"));
  EXPECT_FALSE(valid_utf8("Andr\xE9"));              // Latin-1, as biloba 0.9.3 sends it
  EXPECT_FALSE(valid_utf8("\xC0\xAF"));               // overlong '/'
  EXPECT_FALSE(valid_utf8("\xE0\x80\xAF"));           // overlong '/'
  EXPECT_FALSE(valid_utf8("\xED\xA0\x80"));           // surrogate U+D800
  EXPECT_FALSE(valid_utf8("\xF4\x90\x80\x80"));       // above U+10FFFF
  EXPECT_FALSE(valid_utf8("\xE2\x82"));               // truncated
  EXPECT_FALSE(valid_utf8("\x80"));                   // lone continuation
  EXPECT_EQ(first_invalid_utf8("ab\xC3\xA9" "c\xFF" "d"), 5u);
  EXPECT_EQ(first_invalid_utf8("abc"), std::string_view::npos);
}

TEST(Text, Utf8PrefixNeverCutsACharacter) {
  // A mail's Subject cut at 80 bytes inside a character made the answer's Subject invalid UTF-8.
  EXPECT_EQ(utf8_prefix("a\xC3\xA9", 2), "a");
  EXPECT_EQ(utf8_prefix("a\xC3\xA9", 3), "a\xC3\xA9");
  EXPECT_EQ(utf8_prefix("x\xE2\x82\xACy", 2), "x");
  EXPECT_EQ(utf8_prefix("x\xE2\x82\xACy", 3), "x");
  EXPECT_EQ(utf8_prefix("x\xE2\x82\xACy", 4), "x\xE2\x82\xAC");
  EXPECT_EQ(utf8_prefix("abc", 0), "");
  const std::string subject = std::string(79, 's') + "\xC3\xA9";
  EXPECT_EQ(utf8_prefix(subject, 80), std::string(79, 's'));
  EXPECT_TRUE(valid_utf8(utf8_prefix(subject, 80)));
}

TEST(Text, Latin1ToUtf8) {
  EXPECT_EQ(latin1_to_utf8("Andr\xE9"), "Andr\xC3\xA9");
  EXPECT_EQ(latin1_to_utf8("abc"), "abc");
  EXPECT_EQ(latin1_to_utf8("\xFF\x80"), "\xC3\xBF\xC2\x80");
  EXPECT_TRUE(valid_utf8(latin1_to_utf8(std::string("\x00\x7F\x80\xFF", 4))));
  // What the biloba window sends to a 0.9.3 peer: Latin-1 when every character has a byte.
  EXPECT_EQ(utf8_to_latin1_if_possible("Andr\xC3\xA9"), "Andr\xE9");
  EXPECT_EQ(utf8_to_latin1_if_possible("\xC3\xBF\xC2\x80 abc"), "\xFF\x80 abc");
  EXPECT_EQ(utf8_to_latin1_if_possible("abc"), "abc");
  EXPECT_EQ(utf8_to_latin1_if_possible("\xE2\x82\xAC" "5"), "\xE2\x82\xAC" "5");  // the euro sign
  EXPECT_EQ(utf8_to_latin1_if_possible("Andr\xE9"), "Andr\xE9");  // not UTF-8: as it is
  for (int c = 0; c < 256; ++c) {
    const std::string one(1, static_cast<char>(c));
    EXPECT_EQ(utf8_to_latin1_if_possible(latin1_to_utf8(one)), one) << c;
  }
}

TEST(Text, ClosestWordSuggestsOnlyNearMisses) {
  const std::vector<std::string> commands = {"games", "moves", "board", "perft", "play",
                                             "match", "serve", "solve"};
  EXPECT_EQ(closest_word("gmaes", commands), "games");   // two letters swapped: one edit
  EXPECT_EQ(closest_word("GAMES", commands), "games");   // case ignored
  EXPECT_EQ(closest_word("serv", commands), "serve");    // one letter missing
  EXPECT_EQ(closest_word("sovle", commands), "solve");
  EXPECT_EQ(closest_word("boad", commands), "board");
  EXPECT_EQ(closest_word("xyzzy", commands), "");        // nothing near
  EXPECT_EQ(closest_word("pl", commands), "");           // 2 edits from "play": not < half of 2
  EXPECT_EQ(closest_word("", commands), "");
  EXPECT_EQ(closest_word(std::string(100, 'g'), commands), "");
  EXPECT_EQ(closest_word("mtach", commands), "match");
}

// The generator must give the same numbers on every machine: records of bot games and
// reproducible matches depend on it.
TEST(Random, SequenceIsFixedForASeed) {
  Rng rng(42);
  const std::uint64_t first = rng.next();
  Rng again(42);
  EXPECT_EQ(again.next(), first);
  std::uint64_t state = 0;
  EXPECT_EQ(splitmix64(state), 0xE220A8397B1DCDAFull);
  Rng bounded(7);
  for (int i = 0; i < 1000; ++i) EXPECT_LT(bounded.below(3), 3u);
}

}  // namespace
}  // namespace plateau
