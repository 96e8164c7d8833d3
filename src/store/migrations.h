#pragma once
// Schema migrations of plateau.db. The database's `PRAGMA user_version` is the number of
// migrations applied; opening a database applies the missing ones in one transaction each.
#include <string>
#include <vector>

namespace plateau::store {

// The SQL of each migration, in order (migration i brings user_version from i to i + 1).
const std::vector<std::string>& migrations();

}  // namespace plateau::store
