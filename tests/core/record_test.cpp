// Game records (DESIGN.md §3): syntax, replay, errors with line numbers, round trips.
#include <gtest/gtest.h>

#include "core/error.h"
#include "core/record.h"
#include "core/registry.h"
#include "games/register.h"

namespace plateau {
namespace {

std::string error_of(const std::string& text) {
  try {
    load_record(text);
  } catch (const RecordError& e) {
    return e.what();
  }
  return "no error";
}

TEST(Record, ParsesTagsNumbersCommentsAndResult) {
  Record r = parse_record(
      "[Game \"bohnduell\"]\n[Seats \"alice,bob\"]\n[Event \"say \\\"hi\\\"\"]\n"
      "1. A:S4 {a comment\n over two lines} 2. B:S1 ; rest ignored\n3.A:S4 1-0\n");
  EXPECT_EQ(r.tag("Game"), "bohnduell");
  EXPECT_EQ(r.tag("Event"), "say \"hi\"");
  ASSERT_EQ(r.moves.size(), 3u);
  EXPECT_EQ(r.moves[0].seat, "A");
  EXPECT_EQ(r.moves[0].move, "S4");
  EXPECT_EQ(r.moves[0].line, 4);
  EXPECT_EQ(r.moves[1].move, "S1");
  EXPECT_EQ(r.moves[1].line, 5);
  EXPECT_EQ(r.moves[2].move, "S4");
  EXPECT_EQ(r.moves[2].line, 6);
}

TEST(Record, InvalidUtf8IsAnErrorNamingTheLine) {
  EXPECT_EQ(error_of("[Game \"bohnduell\"]\n[Seats \"Andr\xe9,bob\"]\nA:S4\n"),
            "line 2: invalid UTF-8 at byte 12 of the line");
  EXPECT_EQ(error_of("[Game \"bohnduell\"]\nA:S4 {caf\xc3}\n"),
            "line 2: invalid UTF-8 at byte 9 of the line");
  // Well-formed UTF-8 is kept as it is.
  Record r = parse_record("[Game \"bohnduell\"]\n[Seats \"Andr\xc3\xa9,bob\"]\n");
  EXPECT_EQ(r.tag("Seats"), "Andr\xc3\xa9,bob");
}

TEST(Record, ErrorsNameLineAndProblem) {
  register_builtin_games();
  EXPECT_EQ(error_of("A:S4\n"), "line 1: missing [Game \"...\"] tag");
  EXPECT_EQ(error_of("[Game \"chess\"]\n").substr(0, 41),
            "line 1: unknown game 'chess'; games are: ");
  EXPECT_EQ(error_of("[Game \"bohnduell\"]\n[Options \"supply=0\"]\n"),
            "line 1: bad value '0' for option supply: expected an integer 1..63");
  EXPECT_EQ(error_of("[Game \"bohnduell\"]\n\nA:S4 B:S4\nA:H3\n"),
            "line 4: move 3 (H3) is illegal: H3 is not legal: bowl A3 holds 0 balls, a harvest "
            "needs exactly 3");
  EXPECT_EQ(error_of("[Game \"bohnduell\"]\nC:S4\n"), "line 2: unknown seat 'C'; seats are A, B");
  EXPECT_EQ(error_of("[Game \"bohnduell\"\n"), "line 1: tag line must end with ']'");
  EXPECT_EQ(error_of("[Game bohnduell]\n"), "line 1: tag Game: value must be in double quotes");
  EXPECT_EQ(error_of("[Game \"bohnduell\"]\n[Game \"bohnduell\"]\n"),
            "line 2: tag Game given twice");
  EXPECT_EQ(error_of("[Game \"bohnduell\"]\nA:S4 {open\n"), "line 2: comment '{' is never closed");
  EXPECT_EQ(error_of("[Game \"bohnduell\"]\nA:S4\n[Date \"x\"]\n"), "line 3: tag after the moves");
  EXPECT_EQ(error_of("[Game \"bohnduell\"]\n[Position \"A[1] s1\"]\n"),
            "line 1: bad Position tag: side A needs 4 bowl counts, got 1");
  EXPECT_EQ(error_of("[Game \"bohnduell\"]\nA:\n"),
            "line 2: bad entry 'A:': expected SEAT:MOVE such as A:S4");
}

// Found by tests/fuzz (record): a CR inside a tag value was kept in the seat name, and the
// record written back (CR as a space) named other seats. Input in tests/fuzz/corpus/record.
TEST(Record, ControlCharacterInATagValueIsAnError) {
  register_builtin_games();
  EXPECT_EQ(error_of("[Game \"phutball\"]\n[Seats \"alice\r\r.,bob\"]\n1. E16\n"),
            "line 2: tag Seats: control character 13 in the value");
  EXPECT_EQ(error_of("[Game \"bohnduell\"]\n[Event \"a\x01\"]\n"),
            "line 2: tag Event: control character 1 in the value");
  EXPECT_EQ(parse_record("[Game \"bohnduell\"]\n[Seats \"al\tice,bob\"]\n").tag("Seats"),
            "al\tice,bob");
}

TEST(Record, ResultTagMustMatchAFinishedGame) {
  register_builtin_games();
  const std::string moves = "A:S1 B:S1 A:H1 B:H1\n";
  EXPECT_EQ(error_of("[Game \"bohnduell\"]\n[Options \"supply=4\"]\n[Result \"1-0\"]\n" + moves),
            "Result tag says 1-0 but the moves end in 0-1");
  EXPECT_EQ(error_of("[Game \"bohnduell\"]\n[Options \"supply=4\"]\n[Result \"0-1\"]\n" + moves),
            "no error");
}

TEST(Record, WriteThenLoadGivesTheSamePosition) {
  register_builtin_games();
  auto game = make_game("bohnduell(supply=4)");
  auto start = game->initial_state();
  auto s = start->clone();
  std::vector<Move> moves;
  for (const char* m : {"S1", "S1", "H1", "H1"}) {
    moves.push_back(s->parse_move(m));
    s->apply(moves.back());
  }
  RecordHeader header;
  header.seats = {"alice", "bob"};
  header.date = "2026-11-29";
  const std::string text = write_record(*start, moves, header);
  EXPECT_EQ(text,
            "[Game \"bohnduell\"]\n[Options \"supply=4\"]\n[Seats \"alice,bob\"]\n"
            "[Date \"2026-11-29\"]\n[Result \"0-1\"]\nA:S1 B:S1 A:H1 B:H1\n");
  auto loaded = load_record(text);
  EXPECT_TRUE(loaded.state->equals(*s));
  EXPECT_EQ(loaded.seats, (std::vector<std::string>{"alice", "bob"}));
  EXPECT_EQ(loaded.moves, moves);
}

}  // namespace
}  // namespace plateau
