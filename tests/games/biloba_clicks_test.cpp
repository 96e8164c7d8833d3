// The click-level turn machine (specs/biloba.md §5): the click vectors of §16 click by click
// (ignored and deselecting clicks included, the seat asked next, the boards and records), the
// consequences of §5.4, and two properties: the minimal clicks of every legal turn token
// (§7.3) rebuild exactly that turn, and any click stream yields turns the move-level rules accept.
#include "games/biloba/biloba_clicks.h"

#include <gtest/gtest.h>

#include <optional>

#include "core/random.h"
#include "core/registry.h"
#include "core/text.h"
#include "games/biloba/biloba_game.h"
#include "games/biloba/biloba_notation.h"
#include "games/register.h"

namespace plateau::biloba {
namespace {

Position pos_of(const std::string& text) {
  const int players = text.back() - '0';
  return parse_position(text, players, false);
}

// Feeds "0:d6 0:e5 ..." checking that each click's seat is the one asked; returns the effects.
std::vector<ClickEffect> feed(ClickMachine& m, const std::string& clicks) {
  std::vector<ClickEffect> effects;
  for (std::string_view c : split_ws(clicks)) {
    EXPECT_EQ(m.asked(), c[0] - '0') << c;
    const int sq = *parse_square(c.substr(2));
    effects.push_back(m.click(x_of(sq), y_of(sq)));
  }
  return effects;
}

// The completed turns as record entries "O:d6-e5-e6 B:...".
std::string records(const ClickMachine& m) {
  std::vector<std::string> out;
  for (const ClickTurn& t : m.turns()) {
    out.push_back(std::string(1, colour_label(t.seat)) + ":" + turn_token(t.token));
  }
  return join(out, " ");
}

std::string board(const ClickMachine& m) { return format_position(m.board()); }

using E = ClickEffect;

TEST(BilobaClicks, TV06_CentreWalkClickByClick) {
  ClickMachine m(pos_of("##OO...##/#.......#/........./...O...../....*..../.....B.../......B../"
                        "#.....B.#/##.....## O 2"),
                 true);
  const auto effects = feed(m, "0:d6 0:e5");
  EXPECT_EQ(effects, (std::vector<E>{E::kSelected, E::kEnteredCentre}));
  EXPECT_EQ(m.selected(), kCentre);
  EXPECT_EQ(format_position(m.board()).substr(40, 9), "....O....");  // the pawn stands on e5
  // The origin, an occupied square, the centre and a9 are ignored: the pawn stays on e5.
  EXPECT_EQ(feed(m, "0:d6 0:f4 0:e5 0:a9"),
            (std::vector<E>{E::kIgnored, E::kIgnored, E::kIgnored, E::kIgnored}));
  EXPECT_EQ(m.asked(), 0);
  EXPECT_EQ(feed(m, "0:e6"), std::vector<E>{E::kMoved});
  EXPECT_EQ(records(m), "O:d6-e5-e6");
  EXPECT_EQ(m.turns()[0].clicks, 7);
  EXPECT_EQ(m.asked(), 1);
  EXPECT_EQ(board(m),
            "##OO...##/#.......#/........./....O..../....*..../.....B.../......B../#.....B.#/"
            "##.....## B 2");
}

TEST(BilobaClicks, TV07_CaptureAndRefillWithIgnoredClicks) {
  ClickMachine m(pos_of("##.....##/#.......#/........./........./....*..../..OB...../.....O.../"
                        "#.....BB#/##....B## O 2"),
                 true);
  EXPECT_EQ(feed(m, "0:f3 0:e4 0:g2 0:e5 0:c4 0:f4 0:d6 0:d4"),
            (std::vector<E>{E::kSelected, E::kMoved, E::kIgnored, E::kIgnored, E::kSelected,
                            E::kIgnored, E::kIgnored, E::kRefilled}));
  EXPECT_EQ(records(m), "O:f3-e4/c4-d4");
  EXPECT_EQ(m.asked(), 1);
  EXPECT_EQ(board(m),
            "##.....##/#.......#/........./........./....*..../...OO..../........./#.....BB#/"
            "##....B## B 2");
  EXPECT_EQ(m.board().count[1], 3);
}

TEST(BilobaClicks, TV07_ClickOnAPawnRestartsTheRefillChoice) {
  ClickMachine m(pos_of("##.....##/#.......#/........./........./....*..../..OB...../.....O.../"
                        "#.....BB#/##....B## O 2"),
                 true);
  EXPECT_EQ(feed(m, "0:f3 0:e4 0:c4 0:g2 0:d4 0:c4 0:d4"),
            (std::vector<E>{E::kSelected, E::kMoved, E::kSelected, E::kDeselected, E::kIgnored,
                            E::kSelected, E::kRefilled}));
  EXPECT_EQ(records(m), "O:f3-e4/c4-d4");
}

TEST(BilobaClicks, TV08_RefillOrders) {
  const std::string start =
      "##.....##/#.......#/........./........./....*..../.OB....../...BO..../#..O..BB#/##....B## "
      "O 2";
  ClickMachine a(pos_of(start), true);
  EXPECT_EQ(feed(a, "0:e3 0:d4 0:d4 0:c4 0:d4 0:b4 0:d2 0:d3"),
            (std::vector<E>{E::kSelected, E::kMoved, E::kSelected, E::kRefilled, E::kIgnored,
                            E::kIgnored, E::kSelected, E::kRefilled}));
  EXPECT_EQ(records(a), "O:e3-d4/d4-c4/d2-d3");
  EXPECT_EQ(board(a),
            "##.....##/#.......#/........./........./....*..../.OO....../...O...../#.....BB#/"
            "##....B## B 2");
  ClickMachine b(pos_of(start), true);
  feed(b, "0:e3 0:d4 0:b4 0:c4 0:d4 0:d3");
  EXPECT_EQ(records(b), "O:e3-d4/b4-c4/d4-d3");
  EXPECT_EQ(board(b),
            "##.....##/#.......#/........./........./....*..../..O....../...O...../#..O..BB#/"
            "##....B## B 2");
  EXPECT_EQ(a.board().count[1], 3);
  EXPECT_EQ(b.board().count[1], 3);
}

TEST(BilobaClicks, TV09_Chain) {
  ClickMachine m(pos_of("##...O.##/#.....O.#/.......O./........./.B..*..../........./..OOB..../"
                        "#.B.....#/##.....## B 2"),
                 true);
  feed(m, "1:b5 1:c4 1:c2 1:c3 1:e3 1:d3");
  EXPECT_EQ(records(m), "B:b5-c4/c2-c3/e3-d3");
  EXPECT_EQ(m.asked(), 0);
  EXPECT_EQ(board(m),
            "##...O.##/#.....O.#/.......O./........./....*..../..B....../..BB...../#.......#/"
            "##.....## O 2");
}

TEST(BilobaClicks, TV10_ForcedCaptureAtTurnStart) {
  ClickMachine m(pos_of("##OOO..##/#.......#/........./........./....*..../........./...O.O.../"
                        "#...B...#/##..BBB## B 2"),
                 true);
  feed(m, "1:e2 1:e3 0:d3 0:e3");
  EXPECT_EQ(records(m), "B:e2-e3 O:x/d3-e3");
  EXPECT_EQ(m.asked(), 1);
  EXPECT_EQ(board(m),
            "##OOO..##/#.......#/........./........./....*..../........./....OO.../#.......#/"
            "##..BBB## B 2");
  // Variant: the capture leaves 2 v 2, the refill is skipped and orange is eliminated, all
  // without a click.
  ClickMachine v(pos_of("##.....##/#.......#/........./........./....*..../........./...O.O.../"
                        "#...B...#/##...BB## B 2"),
                 true);
  feed(v, "1:e2 1:e3");
  EXPECT_EQ(records(v), "B:e2-e3 O:x+out");
  EXPECT_TRUE(v.over());
  EXPECT_EQ(v.asked(), -1);
  EXPECT_EQ(v.click(4, 4), E::kGameOver);  // not consumed
  EXPECT_EQ(v.turns().back().clicks, 0);
}

TEST(BilobaClicks, TV11_TV12_ThreePlayers) {
  ClickMachine m(pos_of("##OOO..##/#.......#/........B/........B/....*..../....O...B/...R.R.../"
                        "#.......#/##.RRR.## O 3"),
                 true);
  feed(m, "0:e4 0:e3 1:i4 1:h4 2:d3 2:e3");
  EXPECT_EQ(records(m), "O:e4-e3 B:i4-h4 R:x/d3-e3");
  EXPECT_EQ(m.asked(), 0);
  EXPECT_EQ(board(m),
            "##OOO..##/#.......#/........B/........B/....*..../.......B./....RR.../#.......#/"
            "##.RRR.## O 3");
  ClickMachine n(pos_of("##OOO..##/#.......#/........B/........./....*..../....OB.../...R.R.../"
                        "#.......#/##.RR.B## O 3"),
                 true);
  feed(n, "0:e4 0:e3 1:g1 1:f2 1:f2 1:f3 2:d1 2:c2");
  EXPECT_EQ(records(n), "O:e4-e3 B:g1-f2/f2-f3 R:d1-c2");
  EXPECT_EQ(n.asked(), 0);
  EXPECT_EQ(board(n),
            "##OOO..##/#.......#/........B/........./....*..../.....B.../...ROB.../#.R.....#/"
            "##..R..## O 3");
}

TEST(BilobaClicks, TV13_EliminationWithoutAClick) {
  ClickMachine a(pos_of("##.....##/#.......#/........./........./....*..../..OB...../....O..../"
                        "#.....BB#/##....B## O 2"),
                 true);
  feed(a, "0:e3 0:e4 0:c4 0:d4");
  EXPECT_EQ(records(a), "O:e3-e4/c4-d4");
  EXPECT_EQ(a.asked(), 1);
  ClickMachine b(pos_of("##.....##/#.......#/........./........./....*..../..OB...../........./"
                        "#...O.BB#/##....B## O 2"),
                 true);
  EXPECT_EQ(records(b), "O:out");
  EXPECT_TRUE(b.over());
}

TEST(BilobaClicks, TV14_TV15_SurvivorsAreAskedToMove) {
  ClickMachine a(pos_of("##.....##/#BO.....#/.O......./........./....*..../........./........./"
                        "#.....BB#/##....B## O 2"),
                 true);
  EXPECT_EQ(a.asked(), 0);
  EXPECT_TRUE(a.turns().empty());
  ClickMachine b(pos_of("##.....##/#.......#/........./...OB..../....*..../........./........./"
                        "#.....BB#/##....B## O 2"),
                 true);
  EXPECT_EQ(b.asked(), 0);
  EXPECT_TRUE(b.turns().empty());
}

TEST(BilobaClicks, TV16_TwoSurvivors) {
  ClickMachine three(pos_of("##.....##/#.......#/..B....../..B....../....*..../........./"
                            "......R../#.....R.#/##.....## O 3"),
                     true);
  EXPECT_EQ(records(three), "B:out");
  EXPECT_TRUE(three.over());
  ClickMachine two(pos_of("##.....##/#.......#/..O....../..O....../....*..../........./"
                          "......B../#.....B.#/##.....## O 2"),
                   true);
  EXPECT_TRUE(two.over());
  EXPECT_TRUE(two.turns().empty());
}

TEST(BilobaClicks, TV17_NoLegalMove) {
  const std::string pos =
      "##OOOBB##/#BBBBB..#/BBBBBBB../........./....*..../........./........./#.......#/##.....## "
      "O 2";
  ClickMachine wait(pos_of(pos), false);
  EXPECT_EQ(feed(wait, "0:c9 0:c8 0:d9 0:d7 0:e9 0:g7 0:a9"), std::vector<E>(7, E::kIgnored));
  EXPECT_EQ(wait.asked(), 0);
  EXPECT_TRUE(wait.turns().empty());
  EXPECT_EQ(wait.pending_clicks(), 7);
  ClickMachine pass(pos_of(pos), true);
  EXPECT_EQ(records(pass), "O:pass");
  EXPECT_EQ(pass.asked(), 1);
  EXPECT_EQ(pass.turns()[0].clicks, 0);
}

TEST(BilobaClicks, TV18_TV19_TV20_TV21) {
  ClickMachine m18(pos_of("##.....##/#.......#/........./........./....*..../..OBO..../"
                          "...BB..../#...O.BB#/##....B## O 2"),
                   true);
  feed(m18, "0:c4 0:d4 0:e2 0:e3");
  EXPECT_EQ(records(m18), "O:x/c4-d4/e2-e3");
  EXPECT_EQ(m18.asked(), 1);
  EXPECT_EQ(board(m18),
            "##.....##/#.......#/........./........./....*..../...OO..../....O..../#.....BB#/"
            "##....B## B 2");

  ClickMachine m19(pos_of("##.....##/#.......#/........./........./....*..../..OB...../"
                          "....O..../#.....BB#/##.....## O 2"),
                   true);
  feed(m19, "0:e3 0:e4");
  EXPECT_EQ(records(m19), "O:e3-e4");
  EXPECT_TRUE(m19.over());
  EXPECT_EQ(format_position(m19.board()),
            "##.....##/#.......#/........./........./....*..../..O.O..../........./#.....BB#/"
            "##.....## B 2");

  ClickMachine m20(pos_of("##.....##/#.......#/........./........./.OO.*..../BBB....../"
                          "........./#.O.....#/##.....## O 2"),
                   true);
  feed(m20, "0:c2 0:b3 0:b3 0:b4");
  EXPECT_EQ(records(m20), "O:c2-b3/b3-b4 B:x+out");
  EXPECT_TRUE(m20.over());
  EXPECT_EQ(winner(m20.board()), 0);

  ClickMachine m21(pos_of("##OOO..##/#.......#/........./........./....*..../..B.B..../"
                          "...BO..../#..O..BB#/##.....## O 2"),
                   true);
  feed(m21, "0:e3 0:d4 0:d2 0:d3 1:c4 1:d4");
  EXPECT_EQ(records(m21), "O:e3-d4/d2-d3 B:x/c4-d4");
  EXPECT_EQ(m21.asked(), 0);
  EXPECT_EQ(board(m21),
            "##OOO..##/#.......#/........./........./....*..../...BB..../...O...../#.....BB#/"
            "##.....## O 2");
}

TEST(BilobaClicks, SelectionRules) {
  // Switching to another pawn takes two clicks: the first only deselects.
  ClickMachine m(start_position(2), true);
  EXPECT_EQ(feed(m, "0:b6 0:c6 0:c6 0:d5"),
            (std::vector<E>{E::kSelected, E::kDeselected, E::kSelected, E::kMoved}));
  EXPECT_EQ(records(m), "O:c6-d5");
  // Any other pawn (an enemy too) deselects; an empty non-destination is ignored.
  EXPECT_EQ(feed(m, "1:b4 1:e9 1:e5 1:b4 1:f5 1:b4 1:b5"),
            (std::vector<E>{E::kSelected, E::kDeselected, E::kIgnored, E::kSelected, E::kIgnored,
                            E::kDeselected, E::kIgnored}));
  // A pawn without a destination can be selected and released by clicking it.
  ClickMachine blocked(pos_of("##OOOBB##/#BBBBB..#/BBBBBBB../........./....*..../........./"
                              "........./#.......#/##....O## O 2"),
                       true);
  EXPECT_EQ(feed(blocked, "0:d9 0:e5 0:d9 0:g1 0:g2"),
            (std::vector<E>{E::kSelected, E::kIgnored, E::kDeselected, E::kSelected, E::kMoved}));
  EXPECT_EQ(records(blocked), "O:g1-g2");
  EXPECT_THROW(blocked.click(9, 0), std::out_of_range);
  EXPECT_THROW(blocked.click(0, -1), std::out_of_range);
}

// Random playouts of each player count: for every state and every legal turn token, the
// token's minimal clicks (steps_of) drive the machine to exactly that turn, each click counting.
TEST(BilobaClicks, MinimalClicksRebuildEveryLegalTurn) {
  register_builtin_games();
  Rng rng(7);
  int checked = 0;
  for (const char* spec : {"biloba", "biloba(players=3)", "biloba(players=4)"}) {
    auto game = make_game(spec);
    for (int playout = 0; playout < 3; ++playout) {
      auto s = game->initial_state();
      for (int ply = 0; ply < 200 && !s->is_terminal(); ++ply) {
        const auto& pos = static_cast<const BilobaState&>(*s).position();
        const auto moves = s->legal_moves();
        for (const Move& move : moves) {
          ClickMachine m(pos, true);
          for (const std::string& step : s->steps_of(move)) {
            const int sq = *parse_square(step);
            ASSERT_NE(m.click(x_of(sq), y_of(sq)), E::kIgnored) << s->move_to_string(move);
          }
          ASSERT_GE(m.turns().size(), 1u) << s->move_to_string(move);
          ASSERT_EQ(m.turns()[0].token, move) << s->move_to_string(move);
          auto child = s->clone();
          child->apply(move);
          ASSERT_EQ(format_position(m.turns()[0].after),
                    format_position(static_cast<const BilobaState&>(*child).position()));
          ++checked;
        }
        s->apply(moves[rng.below(static_cast<std::uint32_t>(moves.size()))]);
      }
    }
  }
  EXPECT_GT(checked, 10000);
}

// Noisy click streams (random squares, mostly near the action): every turn the machine
// completes is a legal token of the move-level state, which then reaches the same board.
TEST(BilobaClicks, AnyClickStreamGivesLegalTurns) {
  register_builtin_games();
  Rng rng(11);
  int turns = 0;
  for (const char* spec : {"biloba", "biloba(players=3)", "biloba(players=4)"}) {
    auto game = make_game(spec);
    std::unique_ptr<State> state;
    std::optional<ClickMachine> m;
    std::size_t seen = 0;
    for (int i = 0; i < 20000; ++i) {
      if (!m || m->over()) {
        state = game->initial_state();
        m.emplace(static_cast<const BilobaState&>(*state).position(), true);
        seen = 0;
      }
      // Most clicks go near the action: an own pawn when nothing is selected, else a square
      // at most two cells from the selection; the rest anywhere on the grid.
      int sq = static_cast<int>(rng.below(kSquares));
      if (rng.below(4) != 0) {
        const auto& pos = m->board();
        const int sel = m->selected();
        for (int tries = 0; tries < 40; ++tries) {
          const int c = static_cast<int>(rng.below(kSquares));
          const int dx = x_of(c) - x_of(sel), dy = y_of(c) - y_of(sel);
          if (sel < 0 ? pos.cell[c] == m->asked()
                      : dx >= -2 && dx <= 2 && dy >= -2 && dy <= 2 && pos.cell[c] == kEmpty) {
            sq = c;
            break;
          }
        }
      }
      m->click(x_of(sq), y_of(sq));
      for (; seen < m->turns().size(); ++seen) {
        const ClickTurn& t = m->turns()[seen];
        ASSERT_EQ(state->current_seat(), t.seat);
        state->apply_text(turn_token(t.token));
        ASSERT_EQ(format_position(static_cast<const BilobaState&>(*state).position()),
                  format_position(t.after));
        ++turns;
      }
    }
  }
  EXPECT_GT(turns, 2000);
}

}  // namespace
}  // namespace plateau::biloba
