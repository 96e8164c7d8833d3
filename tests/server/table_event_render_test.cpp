// The typed table events (table_event.h) and their renderer (render_table.cpp): each kind gives
// the message clients always got (the same JSON and text bytes as when the engine built them),
// seat kinds keep their wire words, and the stored form still reads rows written before typed
// events (a row as main wrote it, verbatim).
#include <gtest/gtest.h>

#include "server/render.h"
#include "server/seat_owner.h"
#include "server/table_event.h"
#include "server/table_events.h"

namespace plateau::server {
namespace {

TableView setup_table() {
  TableView t;
  t.game = "bohnduell";
  t.board = 101;
  t.status = TableStatus::kSetup;
  t.seats = {{1, "S", SeatKind::kUser, "alice"}, {2, "N", SeatKind::kFree, ""}};
  t.options = "supply=8";
  t.clock = "none";
  return t;
}

std::string json_of(TableEventBody body, std::int64_t seq = 5) {
  return render_json(table_event_message(TableEvent{seq, std::move(body)}));
}

std::string text_of(TableEventBody body) {
  return render_text(table_event_message(TableEvent{1, std::move(body)}));
}

TEST(SeatKind, WordsRoundTripAndUnknownOnesAreRefused) {
  for (SeatKind k : {SeatKind::kFree, SeatKind::kUser, SeatKind::kCpu, SeatKind::kLegacy}) {
    EXPECT_EQ(parse_seat_kind(seat_kind_word(k)), k);
  }
  EXPECT_STREQ(seat_kind_word(SeatKind::kFree), "");
  EXPECT_STREQ(seat_kind_word(SeatKind::kLegacy), "legacy");
  EXPECT_THROW(parse_seat_kind("robot"), std::runtime_error);
}

TEST(TableEventRender, SeatEventsGiveTheTableMessage) {
  EXPECT_EQ(json_of(SeatChanged{SeatChanged::What::kTaken, "alice", 1, setup_table()}),
            R"j({"board":101,"clock":"none","flags":{},"game":"bohnduell","options":"supply=8",)j"
            R"j("ply":0,"rated":false,"seats":[{"kind":"user","label":"S","name":"alice",)j"
            R"j("seat":1},{"kind":"free","label":"N","name":"","seat":2}],"seq":5,)j"
            R"j("spectators":[],"status":"setup","text":"alice takes seat 1.","type":"table"})j");
  EXPECT_EQ(text_of(SeatChanged{SeatChanged::What::kAway, "bob", 2, setup_table()}),
            "bob has left; seat 2 stays reserved (/join 2 to return).\n");
  EXPECT_EQ(text_of(SeatChanged{SeatChanged::What::kTaken, "cpu:3", 2, setup_table()}),
            "cpu:3 takes seat 2.\n");
  EXPECT_EQ(text_of(OptionsSet{"alice", {"supply=8", "clock=5+0"}, setup_table()}),
            "alice sets supply=8, clock=5+0.\n");
  EXPECT_EQ(text_of(TableReset{"alice", setup_table()}), "alice resets bohnduell 101.\n");
  TableView invisible = setup_table();
  invisible.record = "/records/bohnduell/101?key=k";
  EXPECT_NE(
      json_of(TableReset{"alice", invisible}).find(R"j("record":"/records/bohnduell/101?key=k")j"),
      std::string::npos);
}

TEST(TableEventRender, MoveChatRequestAndForfeit) {
  MovePlayed m;
  m.game = "bohnduell";
  m.board = 101;
  m.ply = 3;
  m.seat = 0;
  m.label = "S";
  m.user = "alice";
  m.move = "H2";
  m.automatic = true;
  m.position = "P";
  m.next_seat = 1;
  m.next_user = "bob";
  EXPECT_EQ(json_of(m, 9),
            R"j({"auto":true,"board":101,"game":"bohnduell","label":"S","move":"H2",)j"
            R"j("next_seat":1,"next_user":"bob","ply":3,"position":"P","seat":0,"seq":9,)j"
            R"j("status":"playing","text":"bohnduell 101: 3. S alice H2 (Auto)",)j"
            R"j("type":"move","user":"alice"})j");
  EXPECT_EQ(text_of(m), "bohnduell 101: 3. S alice H2 (Auto)\n");
  EXPECT_EQ(text_of(ChatSaid{"bohnduell", 101, "server", "hello"}),
            "[bohnduell 101] server: hello\n");
  EXPECT_EQ(text_of(RequestAnswered{"bohnduell", 101, RequestKind::kUndo, false, "bob", ""}),
            "bohnduell 101: bob rejects the undo request.\n");
  EXPECT_EQ(json_of(RequestMade{"bohnduell", 101, RequestKind::kDraw, "alice", "waiting."}),
            R"j({"board":101,"by":"alice","game":"bohnduell","kind":"draw","seq":5,)j"
            R"j("text":"bohnduell 101: waiting.","type":"request"})j");
  EXPECT_EQ(text_of(CpuForfeit{"cpu:2", "no legal move"}),
            "error: cpu:2 cannot play here (no legal move) and forfeits\n");
}

TEST(TableEventRender, BoardEventsCarryTheirPageOnlyWhereTheyAlwaysDid) {
  BoardView b;
  b.game = "phutball";
  b.board = 7;
  b.status = TableStatus::kOver;
  b.ply = 2;
  b.position = "P";
  b.status_line = "Game won by alice.";
  b.clocks.show = ClocksView::Show::kNull;
  GameEnded over{b, true, "1-0", "rules", {1.0, 0.0}, {"This game was not rated."}};
  EXPECT_EQ(json_of(over, 4),
            R"j({"board":7,"clocks":null,"game":"phutball","ply":2,"position":"P",)j"
            R"j("ratings":["This game was not rated."],"reason":"rules","result":"1-0",)j"
            R"j("returns":[1.0,0.0],"seq":4,"spectators":[],"status":"over",)j"
            R"j("status_line":"Game won by alice.",)j"
            R"j("text":"phutball 7: Game won by alice. (1-0, rules)",)j"
            R"j("type":"gameover"})j");
  EXPECT_EQ(text_of(over), "phutball 7: Game won by alice. (1-0, rules)\n");
  BoardView setup;
  setup.setup = true;
  setup.table = setup_table();
  setup.title = "BohnDuell Board 101";
  setup.status_line = "Waiting for /start.";
  const Event shown = reply_message(BoardShown{setup, "You are watching bohnduell 101."});
  EXPECT_EQ(shown.type, "table");
  EXPECT_EQ(render_text(shown),
            "You are watching bohnduell 101.\n\nBohnDuell Board 101: Waiting for /start.\n");
}

// The replies that show the table or its board to the caller carry the view's last seq (the
// browser counts from it after /watch); the table events made from the same views never do,
// and the text transport prints nothing of it.
TEST(TableEventRender, RepliesCarryTheLastSeqAndTableEventsDoNot) {
  TableView t = setup_table();
  t.last_seq = 12;
  const std::string table_reply = render_json(reply_message(TableShown{t, "You are at it."}));
  EXPECT_EQ(table_reply,
            R"j({"board":101,"clock":"none","flags":{},"game":"bohnduell","last_seq":12,)j"
            R"j("options":"supply=8","ply":0,"rated":false,"seats":[{"kind":"user","label":"S",)j"
            R"j("name":"alice","seat":1},{"kind":"free","label":"N","name":"","seat":2}],)j"
            R"j("spectators":[],"status":"setup","text":"You are at it.","type":"table"})j");
  EXPECT_EQ(render_text(reply_message(TableShown{t, "You are at it."})), "You are at it.\n");
  EXPECT_EQ(json_of(SeatChanged{SeatChanged::What::kTaken, "alice", 1, t}).find("last_seq"),
            std::string::npos);

  BoardView b;
  b.game = "phutball";
  b.board = 7;
  b.status = TableStatus::kPlaying;
  b.ply = 2;
  b.position = "P";
  b.status_line = "It is bob's turn.";
  b.last_seq = 30;
  EXPECT_EQ(render_json(reply_message(BoardShown{b, "You are watching phutball 7."})),
            R"j({"board":7,"game":"phutball","last_seq":30,"page":"","ply":2,"position":"P",)j"
            R"j("spectators":[],"status":"playing","status_line":"It is bob's turn.",)j"
            R"j("text":"You are watching phutball 7.","type":"board"})j");
  EXPECT_EQ(json_of(MoveUndone{b}).find("last_seq"), std::string::npos);
  EXPECT_EQ(json_of(GameStarted{b, {"alice", "bob"}, false}).find("last_seq"), std::string::npos);

  BoardView setup;  // before the first start: the table, with its one-line page
  setup.setup = true;
  setup.table = t;
  setup.title = "BohnDuell Board 101";
  setup.status_line = "Waiting for /start.";
  setup.last_seq = 12;
  const Event shown = reply_message(BoardShown{setup, "You are watching bohnduell 101."});
  EXPECT_EQ(shown.type, "table");
  EXPECT_EQ(shown.data.at("last_seq"), 12);
  EXPECT_EQ(render_text(shown),
            "You are watching bohnduell 101.\n\nBohnDuell Board 101: Waiting for /start.\n");
}

// A table event row exactly as main (3565262) stored it (read back from its database after a
// /say): the stored form is unchanged, so rows written before and after typed events read the
// same and replay the same bytes.
TEST(TableEventCodec, DecodesARowAsMainWroteIt) {
  const store::EventRow row{
      1, 2, "chat",
      R"j({"data":{"board":101,"game":"bohnduell","message":"are you there?","text":)j"
      R"j("[bohnduell 101] bob: are you there?","user":"bob"},"type":"chat","v":1})j"};
  const Event e = decode_table_event(row);
  EXPECT_EQ(e.seq, 2);
  EXPECT_EQ(render_text(e), "[bohnduell 101] bob: are you there?\n");
  const Event typed =
      table_event_message(TableEvent{2, ChatSaid{"bohnduell", 101, "bob", "are you there?"}});
  EXPECT_EQ(render_json(e), render_json(typed));
  EXPECT_EQ(encode_table_event(1, typed).body, row.body);
}

}  // namespace
}  // namespace plateau::server
