// The graphical biloba's model (src/gui, no display): strings, layout and hit-testing, the
// menu, --start, help pages, click hints, turn sentences, trace lines and the game driver.
#include <gtest/gtest.h>

#include <chrono>
#include <set>
#include <thread>

#include "compat/biloba/legacy_server.h"
#include "games/biloba/biloba_notation.h"
#include "gui/gui_driver.h"
#include "gui/gui_help.h"
#include "gui/gui_layout.h"
#include "gui/gui_menu.h"
#include "gui/gui_strings.h"
#include "gui/gui_turns.h"

namespace plateau::gui {
namespace {

using namespace plateau::biloba;

TEST(GuiStrings, EveryTextOnceInOrderInBothLanguages) {
  EXPECT_TRUE(strings_in_order());
  EXPECT_STREQ(text(Lang::kEn, Text::kPlay), "PLAY !");
  EXPECT_STREQ(text(Lang::kFr, Text::kPlay), "JOUER !");
  EXPECT_STREQ(text(Lang::kFr, Text::kCreate), "CRÉER UNE PARTIE RÉSEAU");
}

TEST(GuiStrings, LanguageFromOptionAndLocale) {
  EXPECT_EQ(parse_lang("FR"), Lang::kFr);
  EXPECT_EQ(parse_lang("en"), Lang::kEn);
  EXPECT_EQ(parse_lang("de"), std::nullopt);
  EXPECT_EQ(lang_from_locale("fr_FR.UTF-8"), Lang::kFr);
  EXPECT_EQ(lang_from_locale("en_GB.UTF-8"), Lang::kEn);
  EXPECT_EQ(lang_from_locale("C"), Lang::kEn);
  EXPECT_EQ(lang_from_locale(nullptr), Lang::kEn);
}

TEST(GuiLayout, BoardAt800x600) {
  const BoardLayout l = BoardLayout::for_window(800, 600);
  EXPECT_EQ(l.board, (Rect{15, 65, 495, 495}));
  EXPECT_EQ(l.cell, 55);
  EXPECT_EQ(l.centre(0), (Point{42, 92}));
  EXPECT_EQ(l.centre(kCentre), (Point{15 + 4 * 55 + 27, 65 + 4 * 55 + 27}));
  EXPECT_EQ(l.square_at(42, 92), 0);
  EXPECT_EQ(l.square_at(15 + 4 * 55, 65 + 4 * 55), kCentre);
  EXPECT_EQ(l.square_at(15 + 495 - 1, 65 + 495 - 1), 80);
  EXPECT_EQ(l.square_at(14, 92), -1);
  EXPECT_EQ(l.square_at(15 + 495, 92), -1);
  EXPECT_EQ(l.icons.help, (Rect{757, 7, 35, 35}));
  EXPECT_EQ(l.icons.lang, (Rect{714, 7, 35, 35}));
  EXPECT_EQ(l.pawn_radius(), 20);
}

TEST(GuiLayout, ScalesWithTheWindow) {
  const BoardLayout small = BoardLayout::for_window(400, 300);
  const BoardLayout big = BoardLayout::for_window(1600, 1200);
  EXPECT_EQ(small.cell, 28);
  EXPECT_EQ(big.cell, 111);
  for (const BoardLayout* l : {&small, &big}) {
    for (int sq = 0; sq < 81; ++sq) EXPECT_EQ(l->square_at(l->centre(sq).x, l->centre(sq).y), sq);
    EXPECT_LE(l->board.x + l->board.w, l->panel.x);
    EXPECT_LE(l->panel.x + l->panel.w, l->width);
  }
}

TEST(GuiMenu, ClicksCyclePlayersAndSeatKinds) {
  MenuState menu;
  const MenuLayout l = MenuLayout::for_window(800, 600);
  EXPECT_EQ(menu.players, 2);
  EXPECT_TRUE(menu.seats[0].human);
  EXPECT_EQ(menu.seats[1], (SeatKind{false, "classic"}));
  EXPECT_EQ(menu_click(menu, l, l.players.cx(), l.players.cy()), MenuAction::kChanged);
  EXPECT_EQ(menu.players, 3);
  EXPECT_EQ(menu_click(menu, l, l.seat_kind[1].cx(), l.seat_kind[1].cy()), MenuAction::kChanged);
  EXPECT_EQ(menu.seats[1], (SeatKind{false, "1"}));
  // Seat 4 is not in a 3-player game: its kind does not change.
  EXPECT_EQ(menu_click(menu, l, l.seat_kind[3].cx(), l.seat_kind[3].cy()), MenuAction::kNone);
  EXPECT_EQ(menu_click(menu, l, l.play.cx(), l.play.cy()), MenuAction::kPlay);
  EXPECT_EQ(menu_click(menu, l, l.create.cx(), l.create.cy()), MenuAction::kCreate);
  EXPECT_EQ(menu_click(menu, l, l.join.cx(), l.join.cy()), MenuAction::kJoin);
  EXPECT_EQ(menu_click(menu, l, l.save_last.cx(), l.save_last.cy()), MenuAction::kSaveLast);
  EXPECT_EQ(l.save_last, (Rect{537, 470, 246, 50}));
  EXPECT_EQ(menu_click(menu, l, l.icons.help.cx(), l.icons.help.cy()), MenuAction::kHelp);
  EXPECT_EQ(menu_click(menu, l, l.icons.lang.cx(), l.icons.lang.cy()), MenuAction::kLang);
  EXPECT_EQ(menu_click(menu, l, l.server.cx(), l.server.cy()), MenuAction::kEditServer);
  EXPECT_EQ(menu_click(menu, l, l.seat_row[2].cx(), l.seat_row[2].cy()), MenuAction::kEditName);
  EXPECT_EQ(menu.editing_name, 2);
  EXPECT_EQ(menu_click(menu, l, 1, l.height - 1), MenuAction::kNone);
  EXPECT_EQ(menu.editing_name, -1);
  menu.lan_servers = {"alpha", "beta"};
  EXPECT_EQ(menu_click(menu, l, l.lan_rows[1].cx(), l.lan_rows[1].cy()), MenuAction::kChanged);
  EXPECT_EQ(menu.server, "beta");
  EXPECT_EQ(menu_click(menu, l, l.players.cx(), l.players.cy()), MenuAction::kChanged);
  EXPECT_EQ(menu_click(menu, l, l.players.cx(), l.players.cy()), MenuAction::kChanged);
  EXPECT_EQ(menu.players, 2);
}

TEST(GuiMenu, KindCycleAndLabels) {
  SeatKind k;
  std::vector<std::string> labels;
  for (int i = 0; i < 8; ++i) {
    labels.push_back(kind_label(k, Lang::kEn));
    k = next_kind(k);
  }
  EXPECT_EQ(labels, (std::vector<std::string>{"HUMAN", "CPU classic", "CPU level 1", "CPU level 2",
                                              "CPU level 3", "CPU level 4", "CPU level 5",
                                              "HUMAN"}));
  EXPECT_EQ(kind_label({false, "3"}, Lang::kFr), "CPU niveau 3");
}

TEST(GuiMenu, StartSpecs) {
  const StartSpec local = parse_start_spec("local:human,cpu,3");
  EXPECT_EQ(local.kind, StartSpec::Kind::kLocal);
  EXPECT_EQ(local.seats, (std::vector<SeatKind>{{}, {false, "classic"}, {false, "3"}}));
  EXPECT_EQ(parse_start_spec("join:12").id, 12);
  EXPECT_EQ(parse_start_spec("create:Friday night").name, "Friday night");
  EXPECT_EQ(parse_start_spec("help").kind, StartSpec::Kind::kHelp);
  auto message = [](const char* spec) {
    try {
      parse_start_spec(spec);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(message("local:human"), "--start: a local game has 2, 3 or 4 seats");
  EXPECT_EQ(message("local:human,bob"),
            "--start: seat 'bob' is not human, classic, cpu, random, greedy or 1..5");
  EXPECT_EQ(message("join:x"), "--start: join needs a game id (a number)");
  EXPECT_EQ(message("join:-1"), "--start: join needs a game id (a number)");
  EXPECT_EQ(message("create:"), "--start: create needs a game name");
  EXPECT_EQ(message("play"), "--start: 'play' is not local:SEATS, create:NAME, join:ID or help");
  EXPECT_EQ(message("watch:1"), "--start: 'watch' is not local, create, join or help");
}

TEST(GuiHelp, SixPagesInEachLanguageWithDrawings) {
  for (Lang lang : {Lang::kEn, Lang::kFr}) {
    for (int page = 1; page <= kHelpPages; ++page) {
      const HelpPage& p = help_page(lang, page);
      EXPECT_EQ(p.title.substr(0, 3), std::to_string(page) + "/6");
      EXPECT_FALSE(p.lines.empty());
      ASSERT_FALSE(p.diagrams.empty());
      for (const Diagram& d : p.diagrams) {
        for (const std::string& row : d.rows) {
          EXPECT_EQ(row.find_first_not_of(" .*OBRGob+x"), std::string::npos) << row;
        }
      }
    }
  }
  EXPECT_EQ(help_page(Lang::kEn, 1).title, "1/6  The goal, the board, a step");
  EXPECT_EQ(help_page(Lang::kFr, 5).title, "5/6  La case centrale");
  EXPECT_THROW(help_page(Lang::kEn, 0), std::out_of_range);
  EXPECT_THROW(help_page(Lang::kEn, 7), std::out_of_range);
}

TEST(GuiTurns, HintsAtTheStart) {
  ClickMachine m(start_position(2), true);
  ClickHints h = click_hints(m);
  EXPECT_EQ(h.selected, -1);
  EXPECT_EQ(h.targets, std::vector<int>{});
  // Every orange pawn can be selected (even one without a move, as in the original).
  EXPECT_EQ(h.selectable.size(), 16u);
  m.click_square(*parse_square("b6"));
  h = click_hints(m);
  EXPECT_EQ(h.selected, *parse_square("b6"));
  std::vector<std::string> names;
  for (int sq : h.targets) names.push_back(square_name(sq));
  EXPECT_EQ(names, (std::vector<std::string>{"a7", "b7", "a6", "a5", "b5", "c5"}));
}

TEST(GuiTurns, TraceAndSentences) {
  ClickMachine m(start_position(2), true);
  m.click_square(*parse_square("b6"));
  m.click_square(*parse_square("b5"));
  ASSERT_EQ(m.turns().size(), 1u);
  EXPECT_EQ(trace_turn(1, m.turns()[0]), "turn 1 O b6-b5 " + format_position(m.turns()[0].after));
  EXPECT_EQ(turn_events(m.turns()[0], start_position(2), {}, Lang::kEn),
            std::vector<std::string>{});

  ClickTurn forced;
  forced.seat = 1;
  forced.token = Move{kCodeX};
  forced.after = start_position(2);
  forced.after.count[0] = 14;
  EXPECT_EQ(turn_events(forced, start_position(2), {"Ann", "Bob"}, Lang::kEn),
            (std::vector<std::string>{"Bob takes at the start of the turn (forced)",
                                      "Bob took 2 pawn(s)"}));
  ClickTurn out;
  out.seat = 0;
  out.token = Move{kCodeOut};
  out.after = start_position(2);
  EXPECT_EQ(turn_events(out, start_position(2), {}, Lang::kFr),
            (std::vector<std::string>{"Orange est éliminé"}));
}

TEST(GuiTurns, ResultText) {
  Position p = empty_position(2);
  EXPECT_EQ(result_text(p, {}, Lang::kEn), "");
  p.cell[*parse_square("e5") - 1] = 1;
  p.cell[*parse_square("c3")] = 1;
  renumber(p);
  EXPECT_EQ(result_text(p, {"Ann", "Bob"}, Lang::kEn), "Bob wins !");
  EXPECT_EQ(result_text(p, {"Ann", ""}, Lang::kFr), "Blue gagne !");
}

TEST(GuiDriver, WireTextIsUtf8OrLatin1) {
  EXPECT_EQ(wire_text("Zoé"), "Zoé");             // UTF-8 from a Plateau client
  EXPECT_EQ(wire_text("Zo\xe9"), "Zoé");          // Latin-1 from the original
  EXPECT_EQ(wire_text(std::string("a\0b", 3)), std::string("a\0b", 3));
}

// Waits until `pred(view)` holds (the driver runs on a thread of its own).
template <class Pred>
DriverView wait_for(const GameDriver& d, Pred pred) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < end) {
    DriverView v = d.view();
    if (pred(v)) return v;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ADD_FAILURE() << "timed out";
  return d.view();
}

TEST(GuiDriver, LocalGameAgainstTheClassicBot) {
  LocalSetup setup;
  setup.players = 2;
  setup.seats = {{}, {false, "classic"}};
  setup.names = {"Ann", "CPU"};
  setup.cpu_delay = std::chrono::milliseconds(0);
  auto driver = GameDriver::local(setup);
  wait_for(*driver, [](const DriverView& v) { return v.machine.has_value(); });
  EXPECT_TRUE(driver->click(*parse_square("b6")));
  EXPECT_TRUE(driver->click(*parse_square("b5")));
  const DriverView v =
      wait_for(*driver, [](const DriverView& v) { return v.machine && v.machine->turns().size() >= 2; });
  EXPECT_EQ(turn_token(v.machine->turns()[0].token), "b6-b5");
  EXPECT_EQ(v.machine->turns()[1].seat, 1);
  EXPECT_EQ(v.machine->asked(), 0);
  EXPECT_EQ(v.clicks.names, (std::vector<std::string>{"Ann", "CPU"}));
  // Two clicks of Ann, then the bot's clicks, all recorded for SAVE LAST GAME.
  ASSERT_GE(v.clicks.records.size(), 4u);
  EXPECT_EQ(v.clicks.records[0], (net::BlbRecord{0, 1, 3}));
  EXPECT_EQ(v.clicks.records[1], (net::BlbRecord{0, 1, 4}));
}

TEST(GuiDriver, ClicksOutOfTurnAreRefused) {
  LocalSetup setup;
  setup.players = 2;
  setup.seats = {{false, "classic"}, {}};
  setup.names = {"CPU", "Bob"};
  setup.cpu_delay = std::chrono::milliseconds(300);
  auto driver = GameDriver::local(setup);
  wait_for(*driver, [](const DriverView& v) { return v.machine.has_value(); });
  EXPECT_FALSE(driver->click(*parse_square("e3")));  // the bot's turn
  wait_for(*driver, [](const DriverView& v) { return v.machine->asked() == 1; });
  EXPECT_TRUE(driver->click(*parse_square("e3")));
}

// Two windows' drivers play a network game through a biloba 0.9.3 server (in this process):
// names, turns and chat reach both sides.
TEST(GuiDriver, NetworkGameBetweenTwoDrivers) {
  net::LegacyServerOptions options;
  options.address = "127.0.0.1";
  options.port = 0;
  options.ready_pause = std::chrono::milliseconds(0);
  options.cpu_delay = std::chrono::milliseconds(0);
  net::LegacyServerThread server(options);
  NetworkSetup a;
  a.host = "127.0.0.1";
  a.port = server.port();
  a.create = true;
  a.game_name = "Friday";
  a.my_name = "Ann";
  auto ann = GameDriver::network(a);
  wait_for(*ann, [](const DriverView& v) { return v.phase == DriverPhase::kWaiting; });
  EXPECT_EQ(ann->view().game_id, 1);
  NetworkSetup b = a;
  b.create = false;
  b.join_id = 1;
  b.my_name = "Bob";
  auto bob = GameDriver::network(b);
  auto playing = [](const DriverView& v) { return v.phase == DriverPhase::kPlaying && v.machine; };
  const DriverView va = wait_for(*ann, playing);
  const DriverView vb = wait_for(*bob, playing);
  EXPECT_EQ(va.names, (std::vector<std::string>{"Ann", "Bob"}));
  EXPECT_EQ(vb.names, va.names);
  EXPECT_EQ(va.human, (std::vector<bool>{true, false}));
  EXPECT_EQ(vb.human, (std::vector<bool>{false, true}));
  EXPECT_FALSE(bob->click(*parse_square("c3")));  // Ann's turn
  EXPECT_TRUE(ann->click(*parse_square("b6")));
  EXPECT_TRUE(ann->click(*parse_square("b5")));
  const DriverView b1 = wait_for(*bob, [](const DriverView& v) {
    return v.machine && v.machine->turns().size() == 1;
  });
  EXPECT_EQ(turn_token(b1.machine->turns()[0].token), "b6-b5");
  EXPECT_TRUE(bob->click(*parse_square("c3")));
  EXPECT_TRUE(bob->click(*parse_square("c2")));
  const DriverView a2 = wait_for(*ann, [](const DriverView& v) {
    return v.machine && v.machine->turns().size() == 2;
  });
  EXPECT_EQ(turn_token(a2.machine->turns()[1].token), "c3-c2");
  const DriverView b2 = wait_for(*bob, [](const DriverView& v) {
    return v.machine && v.machine->turns().size() == 2;
  });
  EXPECT_EQ(format_position(a2.machine->board()), format_position(b2.machine->board()));
  EXPECT_EQ(format_position(a2.machine->board()),
            "##..O..##/#..OOO..#/..OOOOO../..OOOOOO./.O..*..../.BBBBBBB./...BBBB../#.BBBB..#/"
            "##..B..## O 2");
  ann->say("hello Bob");
  const DriverView chat = wait_for(*bob, [](const DriverView& v) { return !v.chat.empty(); });
  EXPECT_EQ(chat.chat, std::vector<std::string>{"Ann: hello Bob"});
  EXPECT_EQ(ann->view().chat, std::vector<std::string>{"Ann: hello Bob"});
  // Ann plays; Bob leaves on his turn: Ann's game ends with the original's message.
  EXPECT_TRUE(ann->click(*parse_square("d6")));
  EXPECT_TRUE(ann->click(*parse_square("d5")));
  wait_for(*bob, [](const DriverView& v) { return v.machine && v.machine->turns().size() == 3; });
  bob.reset();
  const DriverView over = wait_for(*ann, [](const DriverView& v) { return v.phase == DriverPhase::kOver; });
  EXPECT_TRUE(over.someone_left);
  EXPECT_EQ(over.message, "Bob leaves");
}

TEST(GuiDriver, NetworkFailureIsShown) {
  NetworkSetup a;
  a.host = "127.0.0.1";
  a.port = 1;  // nothing listens there
  a.my_name = "Ann";
  auto ann = GameDriver::network(a);
  const DriverView v = wait_for(*ann, [](const DriverView& v) { return v.phase == DriverPhase::kFailed; });
  EXPECT_FALSE(v.message.empty());
}

}  // namespace
}  // namespace plateau::gui
