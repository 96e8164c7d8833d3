#include "server/command.h"

#include <gtest/gtest.h>

namespace plateau::server {
namespace {

using Params = std::vector<std::pair<std::string, std::string>>;
using Args = std::vector<std::string>;

Command parse(std::string_view line) {
  auto c = parse_command(line);
  EXPECT_TRUE(c.has_value()) << line;
  return c.value_or(Command{});
}

std::string error_of(std::string_view line) {
  try {
    parse_command(line);
  } catch (const CommandError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(CommandParser, PbmservChallengeWithParametersAndOptions) {
  Command c = parse("phutball challenge -handicap=2 alice --winningways bob");
  EXPECT_EQ(c.verb, Verb::kChallenge);
  EXPECT_EQ(c.game, "phutball");
  EXPECT_EQ(c.params, (Params{{"handicap", "2"}}));
  EXPECT_EQ(c.flags, (Args{"winningways"}));
  EXPECT_EQ(c.args, (Args{"alice", "bob"}));
  // `challenge` may be shortened to 5 letters or more, not fewer.
  EXPECT_EQ(parse("Phutball CHALL -handicap=-3 a b").params, (Params{{"handicap", "-3"}}));
  EXPECT_EQ(error_of("phutball chal a b"), "unknown command 'phutball'; type help for the list");
}

TEST(CommandParser, MovesWithBoardAndPlyCheck) {
  Command c = parse("phutball move 101 H10-H13-L10#6");
  EXPECT_EQ(c.verb, Verb::kMove);
  EXPECT_EQ(c.board, 101);
  EXPECT_EQ(c.ply_check, 6);
  EXPECT_EQ(c.args, (Args{"H10-H13-L10"}));
  Command bare = parse("/move s4");
  EXPECT_FALSE(bare.board.has_value());
  EXPECT_EQ(bare.args, (Args{"s4"}));
  EXPECT_EQ(parse("mvoe 7 S1").verb, Verb::kMove);
  EXPECT_EQ(parse("board 7 S1").verb, Verb::kMove);
  EXPECT_EQ(parse("qmove 7 S1").verb, Verb::kQueue);
  EXPECT_EQ(parse("boardq 7 S1").verb, Verb::kQueue);
}

TEST(CommandParser, MoveWordsThatAreCommands) {
  EXPECT_EQ(parse("move 101 resign").verb, Verb::kResign);
  EXPECT_EQ(parse("move 101 propose").verb, Verb::kPropose);
  EXPECT_EQ(parse("move 101 ACCEPT").verb, Verb::kAccept);
  EXPECT_EQ(parse("move 101 reject").verb, Verb::kReject);
  Command u = parse("move 101 undo");
  EXPECT_EQ(u.verb, Verb::kUndo);
  EXPECT_EQ(u.board, 101);
  EXPECT_TRUE(u.args.empty());
  EXPECT_EQ(parse("queue 101 resign").verb, Verb::kResign);
}

TEST(CommandParser, TableCommands) {
  Command j = parse("/join cpu:random 2");
  EXPECT_EQ(j.verb, Verb::kJoin);
  EXPECT_EQ(j.args, (Args{"cpu:random", "2"}));
  EXPECT_EQ(parse("/option supply 10").params, (Params{{"supply", "10"}}));
  EXPECT_EQ(parse("/option steal_scope=any").params, (Params{{"steal_scope", "any"}}));
  EXPECT_EQ(parse("/option invisible").params, (Params{{"invisible", ""}}));
  Command o = parse("/open bohnduell supply=8 clock=move:30");
  EXPECT_EQ(o.game, "bohnduell");
  EXPECT_EQ(o.params, (Params{{"supply", "8"}, {"clock", "move:30"}}));
  Command t = parse("/table phutball 103");
  EXPECT_EQ(t.game, "phutball");
  EXPECT_EQ(t.board, 103);
  EXPECT_EQ(parse("/say  hello   world ").text, "hello   world");
  Command chat = parse("chat 101 nice move, -really- #1");
  EXPECT_EQ(chat.board, 101);
  EXPECT_EQ(chat.text, "nice move, -really- #1");
  Command show = parse("show 101#3");
  EXPECT_EQ(show.board, 101);
  EXPECT_EQ(show.ply_check, 3);
  EXPECT_EQ(parse("watch 12").board, 12);
}

TEST(CommandParser, GeneralCommands) {
  EXPECT_FALSE(parse_command("").has_value());
  EXPECT_FALSE(parse_command("   \t ").has_value());
  EXPECT_EQ(parse("WHO\r").verb, Verb::kWho);
  EXPECT_EQ(parse("help phutball").args, (Args{"phutball"}));
  EXPECT_EQ(parse("phutball standings").game, "phutball");
  EXPECT_EQ(parse("ratings bohnduell").game, "bohnduell");
  EXPECT_EQ(parse("phutball games").verb, Verb::kGames);
  EXPECT_EQ(parse("register alice pw").args, (Args{"alice", "pw"}));
}

// A resume token is base64url: 1 in 64 begins with '-' (a CI failure: "bad parameter
// '-yQsu2U-...': expected -name=value"). Secrets are never read as -name=value or --flag.
TEST(CommandParser, SecretsBeginningWithADashAreArguments) {
  const Command r = parse("resume -yQsu2U-qmjzBg9DepQF9O0y_KBgmsjEGD5oJ1TS4DE");
  EXPECT_EQ(r.verb, Verb::kResume);
  EXPECT_EQ(r.args, (Args{"-yQsu2U-qmjzBg9DepQF9O0y_KBgmsjEGD5oJ1TS4DE"}));
  EXPECT_TRUE(r.params.empty());
  EXPECT_EQ(parse("resume --flagshaped").args, (Args{"--flagshaped"}));
  EXPECT_EQ(parse("login alice -x=secret").args, (Args{"alice", "-x=secret"}));
  EXPECT_EQ(parse("register bob --pass-word").args, (Args{"bob", "--pass-word"}));
  EXPECT_EQ(error_of("resume a b"), "usage: resume TOKEN");
}

TEST(CommandParser, LimitTakesNothingANumberAcceptOrReject) {
  EXPECT_EQ(parse("limit").verb, Verb::kLimit);
  EXPECT_TRUE(parse("limit").args.empty());
  EXPECT_EQ(parse("/LIMIT Reject").args, (Args{"Reject"}));
  EXPECT_EQ(parse("limit accept").args, (Args{"accept"}));
  EXPECT_EQ(parse("limit 3").args, (Args{"3"}));
  EXPECT_EQ(error_of("limit maybe"), "usage: limit [N|accept|reject]");
  EXPECT_EQ(error_of("limit -1"), "usage: limit [N|accept|reject]");
  EXPECT_EQ(error_of("limit -x=1"), "limit takes no -name=value parameters");
  EXPECT_EQ(error_of("limit 1 2"), "usage: limit [N|accept|reject]");
  EXPECT_EQ(error_of("limit 1234567890"), "usage: limit [N|accept|reject]");
}

TEST(CommandParser, ErrorsNameTheProblem) {
  EXPECT_EQ(error_of(std::string(4097, 'a')), "line too long: 4097 bytes, at most 4096");
  EXPECT_EQ(error_of("who\x01"), "control character 1 in the line");
  EXPECT_EQ(error_of("frob"), "unknown command 'frob'; type help for the list");
  EXPECT_EQ(error_of("move"), "usage: move [BOARD] MOVE[#n]");
  EXPECT_EQ(error_of("move 101 H11#x"), "bad ply number after '#' 'x': expected a number");
  EXPECT_EQ(error_of("move 101 #3"), "missing move before '#'");
  EXPECT_EQ(error_of("login alice"), "usage: login NAME PASSWORD");
  EXPECT_EQ(error_of("x challenge -handicap alice bob"),
            "bad parameter '-handicap': expected -name=value");
  EXPECT_EQ(error_of("who -x=1"), "who takes no -name=value parameters");
  EXPECT_EQ(error_of("/table x"), "bad table number 'x': expected a number");
  EXPECT_EQ(error_of("/say"), "usage: /say TEXT");
  EXPECT_EQ(error_of("/option a b c"), "usage: /option NAME=VALUE");
  EXPECT_EQ(error_of("standings"), "usage: standings GAME");
  EXPECT_EQ(error_of("show 1234567890"), "usage: show [BOARD]");
}

TEST(CommandParser, InviteAndQueueWithPly) {
  Command c = parse("/invite carol");
  EXPECT_EQ(c.verb, Verb::kInvite);
  EXPECT_FALSE(c.board.has_value());
  EXPECT_EQ(c.args, (Args{"carol"}));
  c = parse("invite 101 carol");
  EXPECT_EQ(c.board, 101);
  EXPECT_EQ(c.args, (Args{"carol"}));
  EXPECT_EQ(error_of("/invite"), "usage: /invite [BOARD] NAME");
  EXPECT_EQ(error_of("/invite a b"), "usage: /invite [BOARD] NAME");
  // queue keeps the #n of its move (the table checks it when the turn comes).
  c = parse("queue 101 C3#9");
  EXPECT_EQ(c.verb, Verb::kQueue);
  EXPECT_EQ(c.board, 101);
  EXPECT_EQ(c.ply_check, 9);
  EXPECT_EQ(c.args, (Args{"C3"}));
}

// Issue 15 item 2: pbmserv's rest of the command set.
TEST(CommandParser, PreviewSubmitConfirm) {
  Command p = parse("phutball preview 101 H11 j12");
  EXPECT_EQ(p.verb, Verb::kPreview);
  EXPECT_EQ(p.board, 101);
  EXPECT_EQ(p.args, (Args{"H11", "j12"}));
  Command n = parse("phutball preview NEW 2 -handicap=0.5 H11");
  EXPECT_EQ(n.args, (Args{"new", "2", "H11"}));
  EXPECT_EQ(n.params, (Params{{"handicap", "0.5"}}));
  EXPECT_EQ(error_of("preview 101"),
            "usage: preview BOARD MOVE... | preview new 2 [-NAME=VALUE ...] MOVE...");
  EXPECT_EQ(error_of("preview new x H11"),
            "usage: preview BOARD MOVE... | preview new 2 [-NAME=VALUE ...] MOVE...");
  EXPECT_EQ(error_of("preview 101 -handicap=2 H11"),
            "preview BOARD takes no -name=value parameters (only preview new)");
  std::string many = "preview 101";
  for (int i = 0; i < 401; ++i) many += " A1";
  EXPECT_EQ(error_of(many), "too many moves: a preview replays at most 400");
  Command s = parse("submit 101 H11#1");
  EXPECT_EQ(s.verb, Verb::kSubmit);
  EXPECT_EQ(s.args, (Args{"H11"}));
  EXPECT_EQ(s.ply_check, 1);
  EXPECT_EQ(error_of("submit H11"), "usage: submit BOARD MOVE[#n]");
  EXPECT_EQ(parse("phutball confirm 101").board, 101);
  EXPECT_EQ(error_of("confirm"), "usage: confirm BOARD");
  EXPECT_TRUE(takes_comment(Verb::kConfirm));
  EXPECT_FALSE(takes_comment(Verb::kSubmit));
}

TEST(CommandParser, AccountsHistoryAndSubscriptions) {
  Command h = parse("phutball history bob");
  EXPECT_EQ(h.verb, Verb::kHistory);
  EXPECT_EQ(h.game, "phutball");
  EXPECT_EQ(h.args, (Args{"bob"}));
  EXPECT_EQ(error_of("history a b"), "usage: history [USER]");
  // Passwords are taken verbatim, even when they begin with '-'.
  Command c = parse("change PASSWORD -old-pw-1 -new-pw-2");
  EXPECT_EQ(c.verb, Verb::kChange);
  EXPECT_EQ(c.args, (Args{"password", "-old-pw-1", "-new-pw-2"}));
  EXPECT_EQ(parse("change address a@b.org").args, (Args{"address", "a@b.org"}));
  EXPECT_EQ(error_of("change password x"), "usage: change password OLD NEW");
  EXPECT_EQ(error_of("change name x"), "usage: change password OLD NEW | change address ADDRESS");
  EXPECT_EQ(parse("signoff").verb, Verb::kSignoff);
  EXPECT_EQ(error_of("signoff now"), "usage: signoff");
  EXPECT_EQ(parse("subscribe 101").board, 101);
  EXPECT_EQ(error_of("subscribe"), "usage: subscribe BOARD");
  EXPECT_EQ(parse("unsubscribe ALL").args, (Args{"all"}));
  EXPECT_EQ(parse("unsubscribe 102").board, 102);
  EXPECT_EQ(error_of("unsubscribe some"), "usage: unsubscribe BOARD | unsubscribe all");
}

}  // namespace
}  // namespace plateau::server
