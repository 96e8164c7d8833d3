#pragma once
// What plateau_load checks after a run (docs/PERFORMANCE.md, "Server"): the moves a store holds,
// read back from plateau.db (SQLite) or the `moves` table of a PostgreSQL database, and their
// comparison with the moves the robots were told were stored.
#include <map>
#include <string>
#include <vector>

namespace plateau::bench {

// Board number -> its moves in ply order (canonical notation).
using MovesByBoard = std::map<int, std::vector<std::string>>;

// The moves of every table of game `game` (its registry name, e.g. "bohnduell") in the SQLite
// database `path`, or in the PostgreSQL database `url` (a libpq URI). Throws std::runtime_error
// (SQLite::Exception, pg::Error, pg::ConnectionLost) if the store cannot be read.
MovesByBoard stored_moves_sqlite(const std::string& path, const std::string& game);
MovesByBoard stored_moves_postgres(const std::string& url, const std::string& game);

// Board number -> the id of the node that owns its table now (`tables.owner` in the PostgreSQL
// database `url`), for the tables of game `game`.
std::map<int, std::string> table_owners(const std::string& url, const std::string& game);

// The comparison of the acknowledged moves with the stored ones, board by board.
struct StoreCheck {
  long stored = 0;      // moves stored for the boards of the run (all boards of the game)
  long lost = 0;        // acknowledged, but missing (or different) at their ply in the store
  long duplicated = 0;  // stored beyond the acknowledged moves (and not an unanswered one)
  long unanswered = 0;  // sent, stored, but the node was killed before its answer came
  bool ok() const { return lost == 0 && duplicated == 0; }
};

// `acked`: per board, every move acknowledged, in ply order. `in_flight`: per board, the move
// that was sent and not answered when its node was killed (it may or may not be stored: both
// are correct, since nobody was told). A stored move past the acknowledged ones counts as
// duplicated unless it is that one.
StoreCheck compare_moves(const MovesByBoard& acked, const MovesByBoard& stored,
                         const std::map<int, std::string>& in_flight);

}  // namespace plateau::bench
