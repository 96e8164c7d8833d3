#include "stored_moves.h"

#include <SQLiteCpp/SQLiteCpp.h>

#include "store/pg_connection.h"

namespace plateau::bench {

MovesByBoard stored_moves_sqlite(const std::string& path, const std::string& game) {
  SQLite::Database db(path, SQLite::OPEN_READONLY);
  MovesByBoard out;
  SQLite::Statement q(db,
                      "SELECT t.number, m.move FROM moves m JOIN tables t ON t.id = m.table_id "
                      "WHERE t.game = ? ORDER BY t.number, m.ply");
  q.bind(1, game);
  while (q.executeStep()) out[q.getColumn(0).getInt()].push_back(q.getColumn(1).getString());
  return out;
}

MovesByBoard stored_moves_postgres(const std::string& url, const std::string& game) {
  store::pg::Connection db(url);
  store::pg::Result r = db.run(
      "SELECT t.number, m.move FROM moves m JOIN tables t ON t.id = m.table_id "
      "WHERE t.game = $1 ORDER BY t.number, m.ply",
      store::pg::Params().text(game));
  MovesByBoard out;
  for (int i = 0; i < r.rows(); ++i) out[static_cast<int>(r.integer(i, 0))].push_back(r.text(i, 1));
  return out;
}

std::map<int, std::string> table_owners(const std::string& url, const std::string& game) {
  store::pg::Connection db(url);
  store::pg::Result r =
      db.run("SELECT number, owner FROM tables WHERE game = $1", store::pg::Params().text(game));
  std::map<int, std::string> out;
  for (int i = 0; i < r.rows(); ++i) out[static_cast<int>(r.integer(i, 0))] = r.text(i, 1);
  return out;
}

StoreCheck compare_moves(const MovesByBoard& acked, const MovesByBoard& stored,
                         const std::map<int, std::string>& in_flight) {
  StoreCheck c;
  for (const auto& [board, moves] : stored) c.stored += static_cast<long>(moves.size());
  static const std::vector<std::string> kNone;
  for (const auto& [board, moves] : acked) {
    auto it = stored.find(board);
    const auto& got = it == stored.end() ? kNone : it->second;
    std::size_t same = 0;
    while (same < moves.size() && same < got.size() && moves[same] == got[same]) ++same;
    c.lost += static_cast<long>(moves.size() - same);
    if (got.size() <= moves.size()) continue;
    long extra = static_cast<long>(got.size() - moves.size());
    auto f = in_flight.find(board);
    if (extra == 1 && f != in_flight.end() && got.back() == f->second) {
      ++c.unanswered;
    } else {
      c.duplicated += extra;
    }
  }
  return c;
}

}  // namespace plateau::bench
