// Phutball rules: every test vector of specs/phutball.md §15 with its exact move set and result,
// the §8.4 error messages, the print-out and board page of §9 (golden files), options, presets,
// serialisation, step input and pinned perft counts.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include "core/error.h"
#include "core/perft.h"
#include "core/record.h"
#include "core/registry.h"
#include "games/phutball/phutball_game.h"
#include "games/phutball/phutball_jumps.h"
#include "games/phutball/phutball_notation.h"
#include "games/register.h"

namespace plateau::phutball {
namespace {

using Strings = std::vector<std::string>;

std::string read_data(const std::string& name) {
  std::ifstream in(std::string(PLATEAU_TEST_DATA) + "/phutball/" + name);
  EXPECT_TRUE(in.good()) << name;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class PhutballTest : public ::testing::Test {
 protected:
  void SetUp() override { register_builtin_games(); }

  static std::shared_ptr<const PhutballGame> game(const std::string& spec = "phutball") {
    return std::dynamic_pointer_cast<const PhutballGame>(make_game(spec));
  }
  // A position built directly: ball point, men, side to move (§15 conventions).
  static std::unique_ptr<State> at(const std::string& ball, const Strings& men, int to_move = kOhs,
                                   const std::string& spec = "phutball") {
    auto g = game(spec);
    Position pos;
    pos.ball = static_cast<std::int16_t>(parse_point(g->rules(), ball));
    for (const auto& m : men) pos.men[parse_point(g->rules(), m)] = 1;
    pos.to_move = static_cast<std::int8_t>(to_move);
    refresh(pos);
    return g->make_state(pos);
  }
  static Strings jumps(const State& s) {
    Strings out;
    for (const Move& m : s.legal_moves()) {
      if (m.size() > 1) out.push_back(s.move_to_string(m));
    }
    std::sort(out.begin(), out.end());
    return out;
  }
  static int placements(const State& s) {
    int n = 0;
    for (const Move& m : s.legal_moves()) n += m.size() == 1;
    return n;
  }
  static std::unique_ptr<State> after(const State& s, const std::string& move) {
    auto c = s.clone();
    c->apply_text(move);
    return c;
  }
  static std::string error_of(const State& s, const std::string& move) {
    try {
      s.parse_move(move);
    } catch (const RuleError& e) {
      return e.what();
    }
    return "(accepted)";
  }
  static std::unique_ptr<State> played(const Strings& moves, const std::string& spec = "phutball") {
    auto s = game(spec)->initial_state();
    for (const auto& m : moves) s->apply_text(m);
    return s;
  }
  static const Position& pos(const State& s) {
    return dynamic_cast<const PhutballState&>(s).position();
  }
  static Strings men_of(const State& s) {
    Strings out;
    const auto& st = dynamic_cast<const PhutballState&>(s);
    for (int c : st.rules().points) {
      if (pos(s).men[c]) out.push_back(point_name(c));
    }
    std::sort(out.begin(), out.end());
    return out;
  }
  static std::string ball_of(const State& s) { return point_name(pos(s).ball); }
};

bool starts(const std::string& text, const std::string& prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}
std::vector<double> kOhsWon = {1.0, 0.0};
std::vector<double> kEksWon = {0.0, 1.0};
std::vector<double> kRunning = {0.0, 0.0};

TEST_F(PhutballTest, TV01_StartPosition) {
  auto s = game()->initial_state();
  EXPECT_EQ(ball_of(*s), "H10");
  EXPECT_EQ(s->current_seat(), kOhs);
  EXPECT_EQ(placements(*s), 284);
  EXPECT_EQ(jumps(*s), Strings{});
  EXPECT_EQ(error_of(*s, "H10"), "point occupied: H10 holds the ball");
  EXPECT_EQ(error_of(*s, "H20"), "bad coordinate 'H20': men are placed on rows 1 to 19 only");
  EXPECT_EQ(error_of(*s, "H0"), "bad coordinate 'H0': men are placed on rows 1 to 19 only");
  EXPECT_EQ(error_of(*s, "I5"), "bad coordinate 'I5': there is no column I");
  EXPECT_EQ(error_of(*s, "Q5"), "bad coordinate 'Q5': columns are A to P, without I");
  EXPECT_EQ(error_of(*s, "A21"),
            "bad coordinate 'A21': rows are 1 to 19, or 0 and 20 beyond the goal lines");
  EXPECT_EQ(error_of(*s, "H10-H12"), "hop passes an empty point: H10-H12 passes H11");
}

TEST_F(PhutballTest, TV02_FirstPossibleJump) {
  auto s = played({"H11"});
  EXPECT_EQ(s->current_seat(), kEks);
  EXPECT_EQ(men_of(*s), Strings{"H11"});
  EXPECT_EQ(jumps(*s), Strings{"H10-H12"});
  EXPECT_EQ(placements(*s), 283);
  auto t = after(*s, "H10-H12");
  EXPECT_EQ(ball_of(*t), "H12");
  EXPECT_EQ(men_of(*t), Strings{});
  EXPECT_EQ(t->current_seat(), kOhs);
}

TEST_F(PhutballTest, TV03_LineJumpedWhole) {
  auto s = at("H10", {"H11", "H12", "H13"});
  EXPECT_EQ(jumps(*s), Strings{"H10-H14"});
  EXPECT_EQ(placements(*s), 281);
  EXPECT_EQ(men_of(*after(*s, "H10-H14")), Strings{});
  EXPECT_EQ(error_of(*s, "H10-H12"), "landing point not empty: H10-H12 lands on the man on H12");
  EXPECT_EQ(error_of(*s, "H10-H13"), "landing point not empty: H10-H13 lands on the man on H13");
  EXPECT_EQ(error_of(*s, "H10-H15"), "hop passes an empty point: H10-H15 passes H14");
}

TEST_F(PhutballTest, TV04_GapForcesSecondHop) {
  auto s = at("H10", {"H11", "H12", "H14"});
  EXPECT_EQ(jumps(*s), (Strings{"H10-H13", "H10-H13-H15"}));
  EXPECT_EQ(placements(*s), 281);
  EXPECT_EQ(error_of(*s, "H10-H15"), "hop passes an empty point: H10-H15 passes H13");
}

TEST_F(PhutballTest, TV05_HelpSample) {
  auto s = played({"H11", "J12", "H12", "K11", "H14"});
  EXPECT_EQ(ball_of(*s), "H10");
  EXPECT_EQ(men_of(*s), (Strings{"H11", "H12", "H14", "J12", "K11"}));
  EXPECT_EQ(s->current_seat(), kEks);
  EXPECT_EQ(jumps(*s), (Strings{"H10-H13", "H10-H13-H15", "H10-H13-L10"}));
  EXPECT_EQ(placements(*s), 279);
  EXPECT_NO_THROW(s->parse_move("H10-H13-L10#6"));
  EXPECT_EQ(error_of(*s, "H10-H13-L10#7"), "wrong move number: Move 6 received as move #7");
  EXPECT_EQ(s->move_to_string(s->parse_move("h10-h13-l10")), "H10-H13-L10");
  auto t = after(*s, "H10-H13-L10");
  EXPECT_EQ(ball_of(*t), "L10");
  EXPECT_EQ(men_of(*t), Strings{"H14"});
  EXPECT_EQ(t->current_seat(), kOhs);
  EXPECT_EQ(jumps(*t), Strings{});
  EXPECT_EQ(placements(*t), 283);
}

TEST_F(PhutballTest, TV05_HelpSampleRecordGivesGoldenPage) {
  ReplayedGame g = load_record(read_data("help_sample.record"));
  EXPECT_EQ(g.state->ply(), 6);
  PageInfo info;
  info.board = 101;
  info.userids = {g.seats.at(0), g.seats.at(1)};
  for (std::size_t i = 0; i < g.moves.size(); ++i) {
    auto replay = g.initial->clone();
    for (std::size_t j = 0; j < i; ++j) replay->apply(g.moves[j]);
    info.moves.push_back(replay->move_to_string(g.moves[i]));
  }
  const std::string golden = read_data("help_sample_page.txt");
  EXPECT_EQ(board_page(*g.state, info), golden);
  // The board print-out of §9.1 is the page from the column header on.
  EXPECT_EQ(g.state->to_text(g.seats), golden.substr(golden.find("    A B C")));
  // The record writer numbers plies as pbmserv does.
  EXPECT_EQ(write_record(*g.initial, g.moves, {{"alice", "bob"}, "", "", {}}),
            read_data("help_sample.record"));
}

TEST_F(PhutballTest, TV06_ImmediateRemovalSplitsLine) {
  auto s = at("C12", {"D12", "E12", "E13", "D13", "D11"});
  EXPECT_EQ(placements(*s), 279);
  EXPECT_EQ(jumps(*s), (Strings{"C12-E10", "C12-E14", "C12-E14-E11", "C12-E14-E11-C11",
                                "C12-E14-E11-C11-E13", "C12-E14-E11-C13", "C12-F12", "C12-F12-D14",
                                "C12-F12-D14-D12", "C12-F12-D14-D12-D10"}));
  EXPECT_EQ(error_of(*s, "C12-F12-D14-D10"), "hop passes an empty point: D14-D10 passes D12");
  auto t = after(*s, "C12-E14-E11-C11-E13");
  EXPECT_EQ(ball_of(*t), "E13");
  EXPECT_EQ(men_of(*t), Strings{});
}

TEST_F(PhutballTest, TV07_ReturnToStartAndDuplicateResults) {
  auto s = at("H10", {"H11", "J11", "J12"});
  EXPECT_EQ(placements(*s), 281);
  EXPECT_EQ(jumps(*s), (Strings{"H10-H12", "H10-H12-K10", "H10-H12-K12", "H10-H12-K12-H10",
                                "H10-K12", "H10-K12-H12", "H10-K12-H12-H10"}));
  std::set<std::uint64_t> results;
  for (const Move& m : s->legal_moves()) {
    if (m.size() > 1) results.insert(after(*s, s->move_to_string(m))->hash());
  }
  EXPECT_EQ(results.size(), 6u);
  auto a = after(*s, "H10-H12-K12-H10");
  auto b = after(*s, "H10-K12-H12-H10");
  EXPECT_TRUE(a->equals(*b));
  EXPECT_EQ(ball_of(*a), "H10");
  EXPECT_EQ(men_of(*a), Strings{});
  // The AI sees one move per resulting position.
  EXPECT_EQ(s->distinct_moves().size(), 281u + 6u);
}

TEST_F(PhutballTest, TV08_OhsScoresPastAndOnTheLine) {
  auto a = at("H17", {"H18", "H19"});
  EXPECT_EQ(jumps(*a), Strings{"H17-H20"});
  auto a2 = after(*a, "H17-H20");
  EXPECT_TRUE(a2->is_terminal());
  EXPECT_EQ(a2->returns(), kOhsWon);
  EXPECT_EQ(a2->result_text(), "Ohs wins: the ball ended on H20.");
  auto b = at("H17", {"H18"});
  EXPECT_EQ(jumps(*b), Strings{"H17-H19"});
  EXPECT_EQ(after(*b, "H17-H19")->returns(), kOhsWon);
}

TEST_F(PhutballTest, TV09_TouchingTargetLineAndGoingOn) {
  auto s = at("H17", {"H18", "J18"});
  EXPECT_EQ(jumps(*s), (Strings{"H17-H19", "H17-H19-K17", "H17-K19"}));
  EXPECT_EQ(after(*s, "H17-H19")->returns(), kOhsWon);
  auto on = after(*s, "H17-H19-K17");
  EXPECT_FALSE(on->is_terminal());
  EXPECT_EQ(ball_of(*on), "K17");
  EXPECT_EQ(men_of(*on), Strings{});
  EXPECT_EQ(after(*s, "H17-K19")->returns(), kOhsWon);
}

TEST_F(PhutballTest, TV10_OwnGoalWithEksToMove) {
  auto s = at("H17", {"H18", "J18"}, kEks);
  EXPECT_EQ(jumps(*s), (Strings{"H17-H19", "H17-H19-K17", "H17-K19"}));
  auto own = after(*s, "H17-H19");
  EXPECT_EQ(own->returns(), kOhsWon);
  EXPECT_EQ(own->result_text(), "Ohs wins: Eks's own goal, the ball ended on H19.");
  EXPECT_FALSE(after(*s, "H17-H19-K17")->is_terminal());
  EXPECT_EQ(after(*s, "H17-K19")->returns(), kOhsWon);

  auto w = at("H17", {"H18", "J18"}, kEks, "phutball(winningways)");
  EXPECT_EQ(jumps(*w), Strings{"H17-H19-K17"});
  EXPECT_EQ(error_of(*w, "H17-H19"),
            "own goal: H17-H19 ends on or beyond Eks's home line (own_goal=illegal)");
}

TEST_F(PhutballTest, TV11_HoppingOutOverOwnHomeLine) {
  auto s = at("H17", {"H18", "H19"}, kEks);
  EXPECT_EQ(jumps(*s), Strings{"H17-H20"});
  EXPECT_EQ(after(*s, "H17-H20")->returns(), kOhsWon);
  auto w = at("H17", {"H18", "H19"}, kEks, "phutball(winningways)");
  EXPECT_EQ(jumps(*w), Strings{});
  EXPECT_EQ(error_of(*w, "H17-H20"),
            "own goal: H17-H20 ends on or beyond Eks's home line (own_goal=illegal)");
}

TEST_F(PhutballTest, TV12_NoExitOverSideEdge) {
  auto a = at("C10", {"B10", "A10"});
  EXPECT_EQ(jumps(*a), Strings{});
  EXPECT_EQ(placements(*a), 282);
  EXPECT_EQ(error_of(*a, "C10-@10"),
            "lands off the side: C10-@10 leaves the board over a side edge");
  auto b = at("B10", {"A10"});
  EXPECT_EQ(jumps(*b), Strings{});
  EXPECT_EQ(placements(*b), 283);
  auto c = at("B10", {"A11"});
  EXPECT_EQ(jumps(*c), Strings{});
  EXPECT_EQ(placements(*c), 283);
  EXPECT_EQ(error_of(*c, "B10-@12"),
            "lands off the side: B10-@12 leaves the board over a side edge");
}

TEST_F(PhutballTest, TV13_DiagonalExitThroughGoalLine) {
  for (const char* spec : {"phutball", "phutball(winningways)"}) {
    auto s = at("G18", {"H19"}, kOhs, spec);
    EXPECT_EQ(jumps(*s), Strings{"G18-J20"}) << spec;
    EXPECT_EQ(after(*s, "G18-J20")->returns(), kOhsWon) << spec;
  }
}

TEST_F(PhutballTest, TV14_CornerExit) {
  auto s = at("O18", {"P19"});
  EXPECT_EQ(jumps(*s), Strings{});
  EXPECT_EQ(error_of(*s, "O18-Q20"),
            "lands off the side: O18-Q20 leaves the board over a side edge (corner exits are "
            "off)");
  auto w = at("O18", {"P19"}, kOhs, "phutball(winningways)");
  EXPECT_EQ(jumps(*w), Strings{"O18-Q20"});
  auto won = after(*w, "o18-q20");
  EXPECT_EQ(won->returns(), kOhsWon);
  EXPECT_EQ(ball_of(*won), "Q20");
  // §9.1: the ball in a sixteenth cell after P.
  const std::string board = won->to_text();
  EXPECT_EQ(board.substr(board.find("\n20") + 1, 40), "20" + std::string(32, ' ') + "@  20\n");
  // And the other corner: '@' replaces the space just before A.
  auto left = at("B2", {"A1"}, kEks, "phutball(corner_exit=on)");
  EXPECT_EQ(jumps(*left), Strings{"B2-@0"});
  const std::string bottom = after(*left, "B2-@0")->to_text();
  EXPECT_NE(
      bottom.find("\n 1  . . . . . . . . . . . . . . .  1\n 0 @" + std::string(31, ' ') + "0\n\n"),
      std::string::npos)
      << bottom;
}

TEST_F(PhutballTest, TV15_EksScoresAtTheBottom) {
  auto a = at("H2", {"H1"}, kEks);
  EXPECT_EQ(jumps(*a), Strings{"H2-H0"});
  auto a2 = after(*a, "H2-H0");
  EXPECT_EQ(a2->returns(), kEksWon);
  // Below row 1 the off-board line (Plateau decision, §9.1).
  EXPECT_NE(a2->to_text().find("\n 1  . . . . . . . . . . . . . . .  1\n 0" + std::string(16, ' ') +
                               "@" + std::string(16, ' ') + "0\n\n"),
            std::string::npos);
  auto b = at("H3", {"H2"}, kEks);
  EXPECT_EQ(jumps(*b), Strings{"H3-H1"});
  EXPECT_EQ(after(*b, "H3-H1")->returns(), kEksWon);
  auto start = game()->initial_state();
  EXPECT_NO_THROW(start->parse_move("H1"));
  EXPECT_NO_THROW(start->parse_move("H19"));
  EXPECT_EQ(error_of(*start, "H0"), "bad coordinate 'H0': men are placed on rows 1 to 19 only");
  EXPECT_EQ(error_of(*start, "H20"), "bad coordinate 'H20': men are placed on rows 1 to 19 only");
}

TEST_F(PhutballTest, TV16_NoSlidingOffAlongGoalLine) {
  const Strings men = {"E18", "D19", "C19", "B19", "A19"};
  auto s = at("E17", men, kEks);
  EXPECT_EQ(placements(*s), 279);
  EXPECT_EQ(jumps(*s), Strings{"E17-E19"});
  EXPECT_EQ(after(*s, "E17-E19")->returns(), kOhsWon);
  EXPECT_EQ(error_of(*s, "E17-E19-@19"),
            "lands off the side: E19-@19 leaves the board over a side edge");
  auto w = at("E17", men, kEks, "phutball(winningways)");
  EXPECT_EQ(jumps(*w), Strings{});
}

TEST_F(PhutballTest, TV17_WinInOneWithDecoy) {
  auto s = at("H10", {"H11", "H13", "J14", "J15", "K15", "K16", "K17", "K18", "K19", "L17"});
  EXPECT_EQ(placements(*s), 274);
  const Strings expected = {"H10-H12",
                            "H10-H12-H14",
                            "H10-H12-H14-K14",
                            "H10-H12-H14-K14-H16",
                            "H10-H12-H14-K14-K20",
                            "H10-H12-H14-M18"};
  EXPECT_EQ(jumps(*s), expected);
  Strings winners;
  for (const auto& m : expected) {
    if (after(*s, m)->returns() == kOhsWon) winners.push_back(m);
  }
  EXPECT_EQ(winners, Strings{"H10-H12-H14-K14-K20"});
  auto decoy = after(*s, "H10-H12-H14-M18");
  EXPECT_FALSE(decoy->is_terminal());
  EXPECT_EQ(men_of(*decoy), (Strings{"J14", "K15", "K17", "K18", "K19"}));
}

TEST_F(PhutballTest, TV18_WholeGameLadder) {
  auto s = played({"H11", "A1", "H13", "A3", "H15", "A5", "H17", "A7", "H19", "A9"});
  EXPECT_EQ(jumps(*s), (Strings{"H10-H12", "H10-H12-H14", "H10-H12-H14-H16", "H10-H12-H14-H16-H18",
                                "H10-H12-H14-H16-H18-H20"}));
  EXPECT_EQ(placements(*s), 274);
  s->apply_text("H10-H12-H14-H16-H18-H20");
  EXPECT_TRUE(s->is_terminal());
  EXPECT_EQ(s->returns(), kOhsWon);
  EXPECT_EQ(ball_of(*s), "H20");
  EXPECT_EQ(men_of(*s), (Strings{"A1", "A3", "A5", "A7", "A9"}));
  EXPECT_EQ(error_of(*s, "B2"), "game over: the game has ended");
  EXPECT_TRUE(s->legal_moves().empty());

  ReplayedGame g = load_record(read_data("ladder.record"));
  PageInfo info;
  info.board = 102;
  info.userids = {"alice", "bob"};
  info.moves = {
      "H11", "A1", "H13", "A3", "H15", "A5", "H17", "A7", "H19", "A9", "H10-H12-H14-H16-H18-H20"};
  EXPECT_EQ(board_page(*g.state, info), read_data("ladder_page.txt"));
}

TEST_F(PhutballTest, TV19_FullBoard) {
  Strings men;
  auto g = game();
  for (int c : g->rules().points) {
    if (point_name(c) != "H10") men.push_back(point_name(c));
  }
  ASSERT_EQ(men.size(), 284u);
  auto s = at("H10", men);
  EXPECT_EQ(placements(*s), 0);
  EXPECT_EQ(jumps(*s), (Strings{"H10-H0", "H10-H20"}));
  EXPECT_EQ(after(*s, "H10-H20")->returns(), kOhsWon);
  EXPECT_EQ(after(*s, "H10-H0")->returns(), kEksWon);
  auto w = at("H10", men, kOhs, "phutball(winningways)");
  EXPECT_EQ(jumps(*w), Strings{"H10-H20"});
}

// TV-20 position: men on the k×k square centred on H10 except H10.
std::unique_ptr<State> block(int k) {
  auto g = std::dynamic_pointer_cast<const PhutballGame>(make_game("phutball"));
  Position pos = start_position(g->rules());
  for (int dc = -k / 2; dc <= k / 2; ++dc) {
    for (int dr = -k / 2; dr <= k / 2; ++dr) {
      if (dc || dr) pos.men[cell_of(7 + dc, 10 + dr)] = 1;
    }
  }
  refresh(pos);
  return g->make_state(pos);
}

std::map<int, int> hop_histogram(const State& s) {
  std::map<int, int> h;
  for (const Move& m : s.legal_moves()) {
    if (m.size() > 1) ++h[static_cast<int>(m.size()) - 1];
  }
  return h;
}

std::size_t distinct_results(const State& s) {
  std::set<std::uint64_t> keys;
  for (const Move& m : s.legal_moves()) {
    auto c = s.clone();
    c->apply(m);
    keys.insert(c->hash());
  }
  return keys.size();
}

TEST_F(PhutballTest, TV20_Block3x3) {
  auto s = block(3);
  EXPECT_EQ(jumps(*s).size(), 272u);
  EXPECT_EQ(distinct_results(*s), 110u + static_cast<std::size_t>(placements(*s)));
  EXPECT_EQ(hop_histogram(*s),
            (std::map<int, int>{{1, 8}, {2, 8}, {3, 16}, {4, 56}, {5, 80}, {6, 72}, {7, 32}}));
  EXPECT_EQ(s->next_steps({"H10"}).next,
            (Strings{"F10", "F12", "F8", "H12", "H8", "K10", "K12", "K8"}));
  EXPECT_FALSE(s->next_steps({"H10"}).complete);
  EXPECT_EQ(s->distinct_moves().size(), 110u + static_cast<std::size_t>(placements(*s)));
}

TEST_F(PhutballTest, TV20_Block5x5) {
  auto s = block(5);
  EXPECT_EQ(jumps(*s).size(), 352u);
  EXPECT_EQ(distinct_results(*s), 138u + static_cast<std::size_t>(placements(*s)));
  EXPECT_EQ(hop_histogram(*s),
            (std::map<int, int>{{1, 8}, {2, 8}, {3, 16}, {4, 64}, {5, 96}, {6, 96}, {7, 64}}));
  int home = 0;
  for (const auto& j : jumps(*s)) home += j.size() >= 3 && j.substr(j.size() - 3) == "H10";
  EXPECT_EQ(home, 40);
  EXPECT_NO_THROW(s->parse_move("H10-E10-H13-H10-H7-L10-H10-E13"));
}

TEST_F(PhutballTest, TV20_Block7x7CountedWithoutEnumeratingPaths) {
  auto s = block(7);
  const auto& st = dynamic_cast<const PhutballState&>(*s);
  const JumpCounts counts = count_jumps(st.rules(), st.position(), {&st.rules(), kOhs});
  EXPECT_EQ(counts.paths, 12731376u);
  EXPECT_EQ(counts.results, 955182u);
  EXPECT_EQ(counts.longest, 34);
  // Step input stays cheap: the first landings, then one level deeper.
  EXPECT_EQ(s->next_steps({"H10"}).next,
            (Strings{"D10", "D14", "D6", "H14", "H6", "M10", "M14", "M6"}));
  StepChoices deeper = s->next_steps({"H10", "D10"});
  EXPECT_TRUE(deeper.complete);
  EXPECT_FALSE(deeper.next.empty());
}

TEST_F(PhutballTest, TV21_Perft) {
  auto s = game()->initial_state();
  EXPECT_EQ(perft(*s, 1), 284u);
  EXPECT_EQ(perft(*s, 2), 80380u);
}

// Depth 3 takes about 0.1 s in a release build and about 1 s under AddressSanitizer: release only.
TEST_F(PhutballTest, TV21_PerftDepth3) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "slow under AddressSanitizer; the release build pins it";
#endif
  EXPECT_EQ(perft(*game()->initial_state(), 3), 22671816u);
}

TEST_F(PhutballTest, TV22_Handicaps) {
  auto h2 = game("phutball(handicap=2)")->initial_state();
  EXPECT_EQ(ball_of(*h2), "H8");
  EXPECT_EQ(placements(*h2), 284);
  EXPECT_EQ(ball_of(*game("phutball(handicap=-3)")->initial_state()), "H13");
  auto half = game("phutball(handicap=0.5)");
  EXPECT_EQ(half->rules().rows, 20);
  auto h05 = half->initial_state();
  EXPECT_EQ(ball_of(*h05), "H10");
  EXPECT_EQ(placements(*h05), 299);
  const std::string spec = "phutball(handicap=0.5)";
  auto a = at("H18", {"H19", "H20"}, kOhs, spec);
  EXPECT_EQ(jumps(*a), Strings{"H18-H21"});
  EXPECT_EQ(after(*a, "H18-H21")->returns(), kOhsWon);
  auto b = at("H17", {"H18"}, kOhs, spec);
  EXPECT_EQ(jumps(*b), Strings{"H17-H19"});
  EXPECT_EQ(after(*b, "H17-H19")->returns(), kRunning);
  auto c = at("H18", {"H19"}, kOhs, spec);
  EXPECT_EQ(jumps(*c), Strings{"H18-H20"});
  EXPECT_EQ(after(*c, "H18-H20")->returns(), kOhsWon);
  // Starting rows of the half-points (§2.3) and the 20-row print-out.
  EXPECT_EQ(ball_of(*game("phutball(handicap=1.5)")->initial_state()), "H9");
  EXPECT_EQ(ball_of(*game("phutball(handicap=-0.5)")->initial_state()), "H11");
  EXPECT_EQ(ball_of(*game("phutball(handicap=-1.5)")->initial_state()), "H12");
  EXPECT_PRED2(starts, h05->to_text(),
               "    A B C D E F G H J K L M N O P\n\n20  . . . . . . . . . . . . . . .  20\n19");
  EXPECT_EQ(error_of(*h05, "H21"), "bad coordinate 'H21': men are placed on rows 1 to 20 only");
  EXPECT_NO_THROW(h05->parse_move("H20"));
  // Rated: 0 and +0.5 only.
  EXPECT_TRUE(is_rated(game("phutball")->rules()));
  EXPECT_TRUE(is_rated(half->rules()));
  for (const char* h : {"-0.5", "1", "-1", "1.5", "8.5", "-8.5"}) {
    EXPECT_FALSE(is_rated(game(std::string("phutball(handicap=") + h + ")")->rules())) << h;
  }
}

TEST_F(PhutballTest, TV23_RepetitionLoop) {
  const Strings loop = {"H11", "H10-H12", "H11", "H12-H10"};
  auto none = played(loop);
  EXPECT_EQ(ball_of(*none), "H10");
  EXPECT_EQ(men_of(*none), Strings{});
  EXPECT_EQ(none->current_seat(), kOhs);
  EXPECT_EQ(none->hash(), game()->initial_state()->hash());

  auto superko = played({"H11", "H10-H12", "H11"}, "phutball(repetition=superko)");
  EXPECT_EQ(error_of(*superko, "H12-H10"),
            "repetition: H12-H10 recreates an earlier position (superko)");
  EXPECT_EQ(jumps(*superko), Strings{});
  EXPECT_EQ(superko->next_steps({}).next.size(), 283u);  // the ball is not offered

  auto three = played(loop, "phutball(repetition=draw_on_threefold)");
  EXPECT_FALSE(three->is_terminal());
  for (const auto& m : Strings{"H11", "H10-H12", "H11"}) three->apply_text(m);
  EXPECT_FALSE(three->is_terminal());
  three->apply_text("H12-H10");
  EXPECT_EQ(three->ply(), 8);
  EXPECT_TRUE(three->is_terminal());
  EXPECT_EQ(three->returns(), (std::vector<double>{0.5, 0.5}));
  EXPECT_EQ(three->result_text(), "Game was a tie: the same position occurred for the third time.");
}

TEST_F(PhutballTest, TV24_NotationEdgeCases) {
  auto s = at("H10", {"H11", "H12", "H14"});
  EXPECT_EQ(s->move_to_string(s->parse_move("H10-H13")), "H10-H13");
  EXPECT_EQ(s->move_to_string(s->parse_move("h10-h13-h15")), "H10-H13-H15");
  EXPECT_EQ(s->move_to_string(s->parse_move("H10-H13-H15#1")), "H10-H13-H15");
  EXPECT_EQ(error_of(*s, "H10-H13-H15#2"), "wrong move number: Move 1 received as move #2");
  EXPECT_EQ(error_of(*s, "H10-H15"), "hop passes an empty point: H10-H15 passes H13");
  EXPECT_EQ(error_of(*s, "H10-H12"), "landing point not empty: H10-H12 lands on the man on H12");
  EXPECT_EQ(error_of(*s, "H10-H11"),
            "hop too short: H10-H11 goes to an adjacent point, with no man between");
  EXPECT_EQ(error_of(*s, "H10-J12"), "not a straight line: H10-J12");
  EXPECT_EQ(error_of(*s, "H13-H15"),
            "path does not start at the ball: the ball is on H10, not H13");
  EXPECT_EQ(error_of(*s, "H10--H13"),
            "empty path element in 'H10--H13': points are joined by single dashes, as in "
            "H10-H13-L10");
  EXPECT_EQ(error_of(*s, "H10-H13-H13"), "hop too short: H13-H13 has zero length");
  EXPECT_EQ(error_of(*s, "H11"), "point occupied: H11 holds a man");
  EXPECT_EQ(error_of(*s, "I11"), "bad coordinate 'I11': there is no column I");
  EXPECT_EQ(error_of(*s, "H10-H13-H15-H17"), "hop passes an empty point: H15-H17 passes H16");

  auto lenient = at("H10", {"H11", "H12", "H14"}, kOhs, "phutball(lenient_path=on)");
  EXPECT_EQ(lenient->move_to_string(lenient->parse_move("H13-H15")), "H10-H13-H15");
}

// §8.4: each remaining kind of rejected input has its own message.
TEST_F(PhutballTest, ErrorMessagesOfSection8_4) {
  auto s = at("H17", {"H18", "H19"});
  EXPECT_EQ(error_of(*s, "H17-H20-H22"),
            "bad coordinate 'H22': rows are 1 to 19, or 0 and 20 beyond the goal lines");
  // A hop from off the board needs a board whose game has not ended: use own_goal=illegal's
  // mover-side check on a position where the ball path goes out and "continues".
  EXPECT_EQ(error_of(*s, "H17-H20-H18"),
            "hop starts off the board: H20-H18 (the ball left the board at H20)");
  EXPECT_EQ(error_of(*s, "H17-H20#2"), "wrong move number: Move 1 received as move #2");
  EXPECT_EQ(error_of(*s, "H17-H20#x"),
            "wrong move number: '#x' is not # followed by a move number");
  EXPECT_EQ(error_of(*s, ""),
            "empty move: expected a point such as H11 or a path such as "
            "H10-H13-L10");
  EXPECT_EQ(error_of(*s, "#1"),
            "empty move: expected a point such as H11 or a path such as "
            "H10-H13-L10");
  EXPECT_EQ(error_of(*s, "Z3"), "bad coordinate 'Z3': columns are A to P, without I");
  EXPECT_EQ(error_of(*s, "H"),
            "bad coordinate 'H': expected a column letter and a row number, as "
            "in H10");
  EXPECT_EQ(error_of(*s, "H05"),
            "bad coordinate 'H05': expected a column letter and a row "
            "number, as in H10");
  EXPECT_EQ(error_of(*s, "H17 H19"),
            "bad coordinate 'H17 H19': expected a column letter and a "
            "row number, as in H10");
  // own goal and repetition are covered by TV-10, TV-11 and TV-23; game over by TV-18.
  // The state is unchanged after a rejected move.
  const std::string before = s->serialize();
  EXPECT_THROW(s->apply_text("H17-H21"), RuleError);
  EXPECT_EQ(s->serialize(), before);
}

TEST_F(PhutballTest, StarMeansHopOffOverTargetLine) {
  auto s = at("H17", {"H18", "H19"});
  EXPECT_EQ(s->move_to_string(s->parse_move("H17*")), "H17-H20");
  EXPECT_EQ(s->move_to_string(s->parse_move("h17-*")), "H17-H20");
  auto t = at("H10", {"H11", "H12", "H14"});
  EXPECT_EQ(error_of(*t, "H10-H13*"),
            "'*' needs exactly one hop off the board over Ohs's target line from H13; there is "
            "none");
  auto ladder = played({"H11", "A1", "H13", "A3", "H15", "A5", "H17", "A7", "H19", "A9"});
  EXPECT_EQ(ladder->move_to_string(ladder->parse_move("H10-H12-H14-H16-H18*")),
            "H10-H12-H14-H16-H18-H20");
}

TEST_F(PhutballTest, OptionsAndPresets) {
  EXPECT_EQ(game("phutball(pbmserv)")->spec(), "phutball");
  EXPECT_EQ(game("phutball(winningways)")->spec(),
            "phutball(own_goal=illegal,corner_exit=on,repetition=draw_on_threefold)");
  EXPECT_EQ(game("phutball(winningways,own_goal=lose)")->spec(),
            "phutball(corner_exit=on,repetition=draw_on_threefold)");
  EXPECT_EQ(game("phutball(handicap=+1.5)")->spec(), "phutball(handicap=1.5)");
  EXPECT_EQ(game("phutball(handicap=2.0)")->spec(), "phutball(handicap=2)");
  EXPECT_EQ(game("phutball(handicap=-0.5)")->spec(), "phutball(handicap=-0.5)");
  EXPECT_EQ(game("phutball(handicap=-0)")->spec(), "phutball");
  for (const char* bad : {"9", "-9", "0.25", "1.", "x", "", "8.6", "100"}) {
    try {
      make_game(std::string("phutball(handicap=") + bad + ")");
      ADD_FAILURE() << bad;
    } catch (const OptionError& e) {
      EXPECT_EQ(std::string(e.what()), std::string("bad value '") + bad +
                                           "' for option handicap: expected a multiple of 0.5 "
                                           "from -8.5 to 8.5");
    }
  }
  EXPECT_THROW(make_game("phutball(ply_cap=-1)"), OptionError);
  EXPECT_THROW(make_game("phutball(repetition=ko)"), OptionError);
  EXPECT_EQ(format_handicap(-17), "-8.5");
  EXPECT_EQ(parse_handicap_halves("8.5"), 17);
}

TEST_F(PhutballTest, PlyCapEndsInATie) {
  auto s = played({"A1", "B1", "C1"}, "phutball(ply_cap=4)");
  EXPECT_FALSE(s->is_terminal());
  s->apply_text("D1");
  EXPECT_TRUE(s->is_terminal());
  EXPECT_EQ(s->returns(), (std::vector<double>{0.5, 0.5}));
  EXPECT_EQ(s->result_text(), "Game was a tie: the ply cap of 4 plies was reached.");
  // A winning move on the capped ply still wins.
  auto w = at("H17", {"H18"}, kOhs, "phutball(ply_cap=1)");
  EXPECT_EQ(after(*w, "H17-H19")->returns(), kOhsWon);
}

TEST_F(PhutballTest, NoLegalMoveLosesForTheSideToMove) {
  // §6.3: cannot happen in play (TV-19: a full board keeps its two vertical hops), so the
  // history of a parsed position forbids both results under superko; Ohs then has no move.
  auto g = game("phutball(repetition=superko)");
  Position pos = start_position(g->rules());
  for (int c : g->rules().points) pos.men[c] = c != pos.ball;
  refresh(pos);
  std::vector<std::uint64_t> forbidden;
  for (const char* to : {"H20", "H0"}) {
    Position out = pos;
    make_hop(out, parse_point(g->rules(), to));
    forbidden.push_back(out.key ^ side_key());
  }
  auto s = g->make_state(pos, 0, forbidden);
  EXPECT_TRUE(s->is_terminal());
  EXPECT_EQ(s->returns(), kEksWon);
  EXPECT_EQ(s->result_text(), "Eks wins: Ohs has no legal move.");
  EXPECT_TRUE(s->legal_moves().empty());
  // With one result allowed again, Ohs has exactly that move.
  forbidden.pop_back();
  auto t = g->make_state(pos, 0, forbidden);
  EXPECT_FALSE(t->is_terminal());
  EXPECT_EQ(jumps(*t), Strings{"H10-H0"});
}

TEST_F(PhutballTest, SerialisationRoundTrip) {
  auto s = played({"H11", "J12", "H12", "K11", "H14"});
  EXPECT_EQ(s->serialize(), "ball=H10 men=H11,K11,H12,J12,H14 turn=X ply=5");
  auto p = game()->parse_state("ball=h10 men=H12,K11,J12,H14,h11 turn=x ply=5");
  EXPECT_TRUE(p->equals(*s));
  EXPECT_EQ(p->parse_move("H10-H13-L10#6").size(), 3u);
  auto r = played({"H11", "H10-H12"}, "phutball(repetition=superko)");
  const std::string text = r->serialize();
  EXPECT_PRED2(starts, text, "ball=H12 men= turn=O ply=2 history=");
  auto back = game("phutball(repetition=superko)")->parse_state(text);
  EXPECT_TRUE(back->equals(*r));
  EXPECT_EQ(dynamic_cast<const PhutballState&>(*back).history().size(), 3u);
  auto bad = [&](const std::string& t, const std::string& spec = "phutball") {
    try {
      game(spec)->parse_state(t);
    } catch (const RuleError& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  EXPECT_EQ(bad("ball=H10 men= turn=O"),
            "bad Phutball position 'ball=H10 men= turn=O': missing field ply=");
  EXPECT_EQ(bad("ball=H10 men=H10 turn=O ply=0"),
            "bad Phutball position 'ball=H10 men=H10 turn=O ply=0': a man cannot stand on the "
            "ball's point H10");
  EXPECT_EQ(bad("ball=H10 men=H20 turn=O ply=0"),
            "bad Phutball position 'ball=H10 men=H20 turn=O ply=0': a man cannot stand on H20");
  EXPECT_EQ(bad("ball=Q10 men= turn=O ply=0"),
            "bad Phutball position 'ball=Q10 men= turn=O ply=0': the ball cannot be on Q10");
  EXPECT_EQ(bad("ball=H10 men=A1,A1 turn=O ply=0"),
            "bad Phutball position 'ball=H10 men=A1,A1 turn=O ply=0': man A1 is listed twice");
  EXPECT_EQ(bad("ball=H10 men= turn=Y ply=0"),
            "bad Phutball position 'ball=H10 men= turn=Y ply=0': turn must be O (Ohs) or X "
            "(Eks), not 'Y'");
  EXPECT_EQ(bad("ball=H10 men= turn=O ply=0 history="),
            "bad Phutball position 'ball=H10 men= turn=O ply=0 history=': history is kept only "
            "with a repetition option");
  EXPECT_EQ(bad("ball=H10 men= turn=O ply=0", "phutball(repetition=superko)"),
            "bad Phutball position 'ball=H10 men= turn=O ply=0': missing field history=");
  EXPECT_EQ(bad("ball=H10 men=I3 turn=O ply=0"),
            "bad Phutball position 'ball=H10 men=I3 turn=O ply=0': bad coordinate 'I3': there is "
            "no column I");
  // A finished game parses as finished.
  auto over = game()->parse_state("ball=H20 men=A1 turn=X ply=11");
  EXPECT_TRUE(over->is_terminal());
  EXPECT_EQ(over->returns(), kOhsWon);
}

TEST_F(PhutballTest, StepInput) {
  auto s = played({"H11", "J12", "H12", "K11", "H14"});
  StepChoices root = s->next_steps({});
  EXPECT_EQ(root.next.size(), 280u);  // 279 placements and the ball
  EXPECT_TRUE(std::binary_search(root.next.begin(), root.next.end(), "H10"));
  EXPECT_FALSE(root.complete);
  EXPECT_EQ(s->next_steps({"H10"}).next, Strings{"H13"});
  StepChoices mid = s->next_steps({"h10", "h13"});
  EXPECT_TRUE(mid.complete);
  EXPECT_EQ(mid.next, (Strings{"H15", "L10"}));
  StepChoices end = s->next_steps({"H10", "H13", "L10"});
  EXPECT_TRUE(end.complete);
  EXPECT_TRUE(end.next.empty());
  EXPECT_TRUE(s->next_steps({"A1"}).complete);
  EXPECT_EQ(s->steps_of(s->parse_move("H10-H13-L10")), (Strings{"H10", "H13", "L10"}));
  EXPECT_EQ(s->move_to_string(s->move_from_steps({"H10", "H13", "L10"})), "H10-H13-L10");
  EXPECT_THROW(s->move_from_steps({"H10"}), RuleError);
  EXPECT_THROW(s->next_steps({"H11"}), RuleError);
  EXPECT_THROW(s->next_steps({"A1", "A2"}), RuleError);
  EXPECT_THROW(s->next_steps({"H10", "H12"}), RuleError);
  // Off-board landings are steps too; a landing with no legal ending is never offered.
  auto w = at("H17", {"H18", "J18"}, kEks, "phutball(winningways)");
  EXPECT_EQ(w->next_steps({"H17"}).next, Strings{"H19"});  // not K19 (own goal)
  StepChoices touch = w->next_steps({"H17", "H19"});
  EXPECT_FALSE(touch.complete);
  EXPECT_EQ(touch.next, Strings{"K17"});
  auto out = at("H17", {"H18", "H19"});
  EXPECT_EQ(out->next_steps({"H17"}).next, Strings{"H20"});
  EXPECT_TRUE(out->next_steps({"H17", "H20"}).complete);
}

// Walks the whole step tree of `s` and returns the notation of every complete move.
void walk_steps(const State& s, Strings& prefix, std::set<std::string>& out) {
  StepChoices c = s.next_steps(prefix);
  if (c.complete) out.insert(s.move_to_string(s.move_from_steps(prefix)));
  for (const auto& step : c.next) {
    prefix.push_back(step);
    walk_steps(s, prefix, out);
    prefix.pop_back();
  }
}

// On the jump-rich positions of §15, under every rule set: the step tree offers exactly the
// legal moves, the AI's moves reach exactly the positions the legal moves reach (one each), and
// the position string round-trips.
TEST_F(PhutballTest, StepTreeAndDistinctMovesMatchLegalMovesOnTestVectors) {
  struct Vector {
    std::string ball;
    Strings men;
    int to_move;
  };
  const std::vector<Vector> vectors = {
      {"C12", {"D12", "E12", "E13", "D13", "D11"}, kOhs},
      {"H10", {"H11", "J11", "J12"}, kOhs},
      {"H17", {"H18", "J18"}, kEks},
      {"H17", {"H18", "H19"}, kEks},
      {"O18", {"P19"}, kOhs},
      {"B2", {"A1", "B1", "C1", "A2", "C2"}, kEks},
      {"E17", {"E18", "D19", "C19", "B19", "A19"}, kEks},
      {"H10", {"H11", "H13", "J14", "J15", "K15", "K16", "K17", "K18", "K19", "L17"}, kOhs},
  };
  for (const char* spec : {"phutball", "phutball(winningways)", "phutball(own_goal=illegal)",
                           "phutball(own_goal=illegal,corner_exit=on)"}) {
    for (const auto& v : vectors) {
      auto s = at(v.ball, v.men, v.to_move, spec);
      const std::string where = std::string(spec) + " " + s->serialize();
      std::set<std::string> legal, stepped;
      std::set<std::uint64_t> reached, distinct;
      for (const Move& m : s->legal_moves()) {
        legal.insert(s->move_to_string(m));
        auto c = s->clone();
        c->apply(m);
        reached.insert(c->hash());
      }
      for (const Move& m : s->distinct_moves()) {
        auto c = s->clone();
        c->apply(m);
        EXPECT_TRUE(distinct.insert(c->hash()).second) << where;
      }
      Strings prefix;
      walk_steps(*s, prefix, stepped);
      EXPECT_EQ(stepped, legal) << where;
      EXPECT_EQ(distinct, reached) << where;
      EXPECT_TRUE(s->game()->parse_state(s->serialize())->equals(*s)) << where;
    }
  }
  auto block3 = block(3);
  std::set<std::string> legal, stepped;
  for (const Move& m : block3->legal_moves()) legal.insert(block3->move_to_string(m));
  Strings prefix;
  walk_steps(*block3, prefix, stepped);
  EXPECT_EQ(stepped, legal);
}

TEST_F(PhutballTest, MoveTableShowsLastFourPairsWhileRunning) {
  const Strings moves = {"A1", "B1", "C1", "D1", "E1", "F1", "G1", "H1", "J1"};
  const std::string table = move_table({"alice", "bob"}, moves, false);
  EXPECT_EQ(table,
            "    Ohs (o)              Eks (x)\n"
            "    alice                bob\n"
            "  3 C1                 4 D1\n"
            "  5 E1                 6 F1\n"
            "  7 G1                 8 H1\n"
            "  9 J1\n");
  EXPECT_NE(move_table({"alice", "bob"}, moves, true).find("bob\n  1 A1                 2 B1\n"),
            std::string::npos);
  const std::string pushed = move_table({"a", "b"}, {"H10-H12-H14-H16-H18", "A1"}, false);
  EXPECT_EQ(pushed.substr(pushed.find("  1")),
            "  1 H10-H12-H14-H16-H18\n" + std::string(21, ' ') + "  2 A1\n");
  auto s = game()->initial_state();
  PageInfo info;
  info.userids = {"alice", "bob"};
  EXPECT_PRED2(starts, board_page(*s, info),
               "Summary of Phutball Board 101\n\nPlease start the game, alice.\n\n    Ohs");
  info.kind = PageKind::kPreview;
  info.status = "This is a preview.";
  info.rating_lines = {"This game was not rated."};
  EXPECT_PRED2(starts, board_page(*s, info),
               "Preview of Phutball Board 101\n\nThis is a preview.\nThis game was not rated.\n\n"
               "    Ohs");
}

TEST_F(PhutballTest, RecordsAreNumberedByPly) {
  auto g = game();
  EXPECT_EQ(g->seat_label(0), "O");
  EXPECT_EQ(g->seat_label(1), "X");
  EXPECT_EQ(g->seat_name(0), "Ohs");
  EXPECT_EQ(g->seat_name(1), "Eks");
  EXPECT_EQ(g->record_style(), RecordStyle::kNumbered);
  ReplayedGame r = load_record("[Game \"phutball\"]\n1. H11 2. h10-h12 3. A1#3\n");
  EXPECT_EQ(r.state->ply(), 3);
  EXPECT_EQ(ball_of(*r.state), "H12");
  try {
    load_record("[Game \"phutball\"]\n1. H11 2. H10-H12 3. H12\n");
    ADD_FAILURE();
  } catch (const RecordError& e) {
    EXPECT_EQ(std::string(e.what()),
              "line 2: move 3 (H12) is illegal: point occupied: H12 holds the ball");
  }
}

}  // namespace
}  // namespace plateau::phutball

namespace plateau::phutball {
namespace {

TEST(PhutballRating, OnlyHandicapsZeroAndPlusHalfAreRated) {
  // specs/phutball.md §2.3: "only handicaps 0 and +0.5 are rated".
  register_builtin_games();
  EXPECT_TRUE(make_game("phutball")->rated());
  EXPECT_TRUE(make_game("phutball(handicap=0.5)")->rated());
  EXPECT_TRUE(make_game("phutball(handicap=+0.5)")->rated());
  EXPECT_FALSE(make_game("phutball(handicap=-0.5)")->rated());
  EXPECT_FALSE(make_game("phutball(handicap=1)")->rated());
  EXPECT_FALSE(make_game("phutball(handicap=-3)")->rated());
  // Every other game: two-player games are rated.
  EXPECT_TRUE(make_game("bohnduell")->rated());
  EXPECT_TRUE(make_game("biloba")->rated());
  EXPECT_FALSE(make_game("biloba(players=4)")->rated());
}

}  // namespace
}  // namespace plateau::phutball
