// Golden games recorded from the original biloba 0.9.3 (tests/data/biloba, format in its
// FORMAT.md): every record is replayed at move level (legal move sets, boards after each turn,
// capture batches, elimination tests, eliminations, game over, result; FORMAT.md §5 items 1–2)
// and at click level through the click machine (§5 item 3: boards, the seat asked, the end).
#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "core/registry.h"
#include "games/biloba/biloba_clicks.h"
#include "games/biloba/biloba_game.h"
#include "games/biloba/biloba_notation.h"
#include "games/register.h"

namespace plateau::biloba {
namespace {

using nlohmann::json;

// Whole contents of a plain or gzip-compressed file (zlib reads both).
std::string read_file(const std::string& path) {
  gzFile f = gzopen(path.c_str(), "rb");
  if (!f) throw std::runtime_error("cannot open " + path);
  std::string out;
  char buf[1 << 16];
  int n;
  while ((n = gzread(f, buf, sizeof buf)) > 0) out.append(buf, n);
  gzclose(f);
  return out;
}

std::vector<json> load_records(const std::string& file) {
  std::vector<json> records;
  const std::string text = read_file(std::string(PLATEAU_TEST_DATA) + "/biloba/" + file);
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    if (end > start) records.push_back(json::parse(text.substr(start, end - start)));
    start = end + 1;
  }
  return records;
}

// "x,y" → square index.
int square_of_xy(const std::string& text) {
  const auto comma = text.find(',');
  return square_of(std::stoi(text.substr(0, comma)), std::stoi(text.substr(comma + 1)));
}

std::string xy(int square) {
  return std::to_string(x_of(square)) + "," + std::to_string(y_of(square));
}

// The record's 81-character board of a position (a pawn on the centre shows its letter).
std::string board81(const Position& pos) {
  std::string s;
  for (int sq = 0; sq < kSquares; ++sq) {
    const std::uint8_t c = pos.cell[sq];
    s += c == kWall ? '#' : c < kMaxColours ? colour_label(c) : sq == kCentre ? '*' : '.';
  }
  return s;
}

std::string position_string(const std::string& board, int seat, int players) {
  std::string rows;
  for (int y = 0; y < 9; ++y) {
    if (y) rows += '/';
    rows += board.substr(9 * y, 9);
  }
  return rows + " " + colour_label(seat) + " " + std::to_string(players);
}

// "3,1-2,0" / "3,3-4,4-3,4" of a move's body codes.
std::string body_xy(const Move& move) {
  const std::size_t n = move.size() >= 3 && move[1] == kCentre ? 3 : 2;
  std::string out;
  for (std::size_t i = 0; i < n; ++i) {
    if (i) out += '-';
    out += xy(move[i]);
  }
  return out;
}

// "a-b" in record coordinates → "e7-e6".
std::string pair_token(const std::string& text) {
  std::string out;
  std::size_t start = 0;
  while (true) {
    const std::size_t dash = text.find('-', start);
    out += square_name(square_of_xy(text.substr(start, dash - start)));
    if (dash == std::string::npos) break;
    out += '-';
    start = dash + 1;
  }
  return out;
}

// The §7.2 token of a recorded turn, or "" when the turn has no complete token.
std::string token_of(const json& turn) {
  const std::string kind = turn["kind"];
  std::string token;
  if (kind == "move") {
    token = pair_token(turn["move"]);
  } else if (kind == "forced_capture") {
    token = "x";
  } else if (kind == "eliminated") {
    return "out";
  } else {
    return "";
  }
  for (const auto& r : turn["refills"]) {
    token += '/';
    token += pair_token(r);
  }
  if (kind == "forced_capture" && turn["elimination_test"] == "eliminated") token += "+out";
  return token;
}

std::set<std::string> json_set(const json& list) {
  std::set<std::string> out;
  for (const auto& v : list) out.insert(v.get<std::string>());
  return out;
}

struct Totals {
  int records = 0;
  int turns = 0;
  int clicks = 0;
};

class BilobaGolden : public ::testing::TestWithParam<std::pair<std::string, int>> {
 protected:
  void SetUp() override { register_builtin_games(); }
};

void check_result(const json& rec, const BilobaState& state) {
  const json& result = rec["result"];
  const json& message = result["message"];
  ASSERT_TRUE(state.is_terminal());
  if (message.is_null()) {
    EXPECT_EQ(state.outcome(), Outcome::kNoResult);
    EXPECT_EQ(state.result_text(), "Result: none.");
  } else if (message == "Draw") {
    EXPECT_EQ(state.outcome(), Outcome::kDraw);
    EXPECT_EQ(state.result_text(), "Result: Draw.");
  } else {
    const int winner = result["winner"];
    EXPECT_EQ(message.get<std::string>(), "Player " + std::to_string(winner + 1) + " wins !");
    EXPECT_EQ(state.outcome(), Outcome::kWin);
    EXPECT_EQ(state.winner_seat(), winner);
    EXPECT_EQ(state.returns()[winner], 1.0);
    EXPECT_EQ(state.result_text(), "Result: " + colour_name(winner) + " wins.");
  }
}

// FORMAT.md §5 items 1 and 2.
void replay_moves(const json& rec, Totals& totals) {
  const int players = rec["players"];
  auto game = std::static_pointer_cast<const BilobaGame>(
      make_game("biloba(players=" + std::to_string(players) + ")"));
  const std::string id = rec["id"];
  SCOPED_TRACE(id);
  if (rec.contains("probe") && !rec["probe"].is_null()) {
    const Position start = parse_position(
        position_string(rec["start_board"], rec["first_seat"], players), players, false);
    std::set<std::string> bodies;
    for (const auto& body : move_bodies(start, rec["probe"]["seat"])) {
      std::string s;
      for (std::size_t i = 0; i < body.size(); ++i) {
        if (i) s += '-';
        s += xy(body[i]);
      }
      bodies.insert(s);
    }
    EXPECT_EQ(bodies, json_set(rec["probe"]["legal_moves"])) << "probe";
  }
  std::unique_ptr<State> last;
  for (const json& turn : rec["turns"]) {
    const int n = turn["n"];
    const int seat = turn["seat"];
    const std::string kind = turn["kind"];
    SCOPED_TRACE("turn " + std::to_string(n) + " (" + kind + ")");
    auto state = game->parse_state(position_string(turn["board_before"], seat, players));
    ASSERT_EQ(state->current_seat(), seat);
    const auto moves = state->legal_moves();
    ASSERT_FALSE(moves.empty());
    // The kind of turn follows from its start (§5.2).
    const Move::Code first = moves[0][0];
    if (kind == "forced_capture" || turn["start_capture"].get<bool>()) {
      EXPECT_EQ(first, kCodeX);
    } else if (kind == "eliminated") {
      EXPECT_EQ(moves, std::vector<Move>{Move{kCodeOut}});
    } else if (kind == "no_legal_move") {
      EXPECT_EQ(moves, std::vector<Move>{Move{kCodePass}});
    } else {
      EXPECT_LT(first, kSquares);
    }
    if (!turn["legal_moves"].is_null()) {
      std::set<std::string> bodies;
      for (const Move& m : moves) {
        if (m[0] < kSquares) bodies.insert(body_xy(m));
      }
      EXPECT_EQ(bodies, json_set(turn["legal_moves"]));
    }
    const std::string token = token_of(turn);
    if (token.empty()) {  // incomplete or no_legal_move: the record ends in this turn
      last = std::move(state);
      continue;
    }
    ++totals.turns;
    const Move move = state->parse_move(token);
    EXPECT_EQ(state->move_to_string(move), token);
    EXPECT_NE(std::find(moves.begin(), moves.end(), move), moves.end()) << token;
    // Captures and the elimination test, from the rules' own log of the same turn.
    auto& bstate = static_cast<BilobaState&>(*state);
    TurnLog log;
    Turn logged(bstate.position(), true, &log);
    for (Move::Code c : move) {
      if (c < kSquares) logged.choose(c);
    }
    ASSERT_TRUE(logged.done());
    std::size_t k = 0;
    ASSERT_EQ(log.batches.size(), turn["captures"].size()) << token;
    for (std::size_t b = 0; b < log.batches.size(); ++b) {
      std::set<std::string> batch;
      for (int sq : log.batches[b]) {
        batch.insert(xy(sq) + ":" + colour_label(log.batch_colours[k++]));
      }
      EXPECT_EQ(batch, json_set(turn["captures"][b])) << "batch " << b;
    }
    const json& test = turn["elimination_test"];
    EXPECT_EQ(log.elimination_test, test.is_null()         ? -1
                                    : test == "survived"   ? 1
                                    : test == "eliminated" ? 0
                                                           : 99);
    const std::vector<int> before = turn["counts_before"];
    state->apply(move);
    const Position& after = static_cast<BilobaState&>(*state).position();
    EXPECT_EQ(board81(after), turn["board_after"].get<std::string>()) << token;
    std::vector<int> eliminated;
    for (int s = 0; s < players; ++s) {
      EXPECT_EQ(after.count[s], turn["counts_after"][s].get<int>());
      if (before[s] > 0 && after.count[s] == 0) eliminated.push_back(s);
    }
    EXPECT_EQ(eliminated, turn["eliminated"].get<std::vector<int>>());
    EXPECT_EQ(state->is_terminal(), turn["game_over"].get<bool>());
    last = std::move(state);
  }
  if (rec["end"] == "game_over") {
    if (!last) {
      last = game->parse_state(position_string(rec["start_board"], rec["first_seat"], players));
    }
    check_result(rec, static_cast<const BilobaState&>(*last));
  }
}

// FORMAT.md §5 item 3: the whole click stream through the click machine (original's wait).
void replay_clicks(const json& rec, Totals& totals) {
  const int players = rec["players"];
  const std::string id = rec["id"];
  SCOPED_TRACE(id + " (clicks)");
  const Position start = parse_position(
      position_string(rec["start_board"], rec["first_seat"], players), players, false);
  ClickMachine machine(start, /*pass_when_stuck=*/false);
  const json& turns = rec["turns"];
  for (const json& turn : turns) {
    const std::size_t n = turn["n"];
    const std::string kind = turn["kind"];
    SCOPED_TRACE("turn " + std::to_string(n) + " (" + kind + ")");
    const auto& clicks = turn["clicks"];
    if (!clicks.empty()) {
      ASSERT_EQ(machine.turns().size(), n);
      ASSERT_EQ(machine.asked(), turn["seat"].get<int>());
      for (std::size_t i = 0; i < clicks.size(); ++i) {
        ASSERT_EQ(machine.turns().size(), n) << "turn ended before click " << i;
        const int sq = square_of_xy(clicks[i]);
        EXPECT_NE(machine.click(x_of(sq), y_of(sq)), ClickEffect::kGameOver);
        ++totals.clicks;
      }
    }
    if (kind == "incomplete" || kind == "no_legal_move") {
      EXPECT_EQ(machine.turns().size(), n);
      EXPECT_EQ(machine.asked(), turn["seat"].get<int>());
      EXPECT_EQ(board81(machine.board()), turn["board_after"].get<std::string>());
      continue;
    }
    ASSERT_GT(machine.turns().size(), n);
    const ClickTurn& done = machine.turns()[n];
    EXPECT_EQ(done.seat, turn["seat"].get<int>());
    EXPECT_EQ(done.clicks, static_cast<int>(clicks.size()));
    EXPECT_EQ(board81(done.after), turn["board_after"].get<std::string>());
    EXPECT_EQ(turn_token(done.token), token_of(turn));
  }
  const std::string end = rec["end"];
  const std::size_t num = turns.size();
  if (end == "game_over") {
    EXPECT_TRUE(machine.over());
    EXPECT_EQ(machine.asked(), -1);
    EXPECT_EQ(machine.turns().size(), num);
  } else if (end == "turn_cap") {
    // The harness stopped before the next turn; a click-free next turn may already have run.
    const int next = machine.turns().size() > num ? machine.turns()[num].seat : machine.asked();
    EXPECT_EQ(next, rec["next_asked"].get<int>());
  } else {
    EXPECT_EQ(machine.asked(), rec["next_asked"].get<int>());
  }
  const bool open_turn = num > 0 && (turns[num - 1]["kind"] == "incomplete" ||
                                     turns[num - 1]["kind"] == "no_legal_move");
  const Position& final_board =
      num == 0 || open_turn ? machine.board() : machine.turns()[num - 1].after;
  EXPECT_EQ(board81(final_board), rec["final_board"].get<std::string>());
}

TEST_P(BilobaGolden, EveryRecordMatchesTheOriginal) {
  const auto& [file, expected_records] = GetParam();
  const auto records = load_records(file);
  ASSERT_EQ(static_cast<int>(records.size()), expected_records);
  Totals totals;
  for (const json& rec : records) {
    replay_moves(rec, totals);
    replay_clicks(rec, totals);
    ++totals.records;
    if (HasFatalFailure()) return;
  }
  EXPECT_EQ(totals.records, expected_records);
  EXPECT_GT(totals.turns, 0);
  std::cout << file << ": " << totals.records << " records, " << totals.turns << " turns, "
            << totals.clicks << " clicks\n";
}

INSTANTIATE_TEST_SUITE_P(Files, BilobaGolden,
                         ::testing::Values(std::make_pair("spec_vectors.jsonl", 30),
                                           std::make_pair("scenarios.jsonl", 4),
                                           std::make_pair("random_2p.jsonl.gz", 60),
                                           std::make_pair("random_3p.jsonl.gz", 40),
                                           std::make_pair("random_4p.jsonl.gz", 40),
                                           std::make_pair("ai_2p.jsonl.gz", 20),
                                           std::make_pair("ai_3p.jsonl.gz", 20),
                                           std::make_pair("ai_4p.jsonl.gz", 20),
                                           std::make_pair("selected_extra.jsonl.gz", 4)),
                         [](const auto& info) {
                           std::string name;
                           for (char c : info.param.first)
                             name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                           return name;
                         });

}  // namespace
}  // namespace plateau::biloba
