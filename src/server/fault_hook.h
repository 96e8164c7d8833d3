#pragma once
// Test-only fault injection for the table's command path (issue 12, item 3). A table calls
// table_fault_point() at a few named points of every action; a test installs a hook that throws
// there to prove that a failure at that point is contained to its table (the table reports the
// error, goes back to its last committed state, and the server goes on).
//
// Nothing in the server sets a hook: no command, flag or environment variable reaches it, so in
// production table_fault_point() is one relaxed atomic load.
//
// Points, in the order an action passes them:
//   "action"  after the action ran, before its events are rendered (its in-memory changes are
//             made: a throw here tests the roll-back of a half-applied command);
//   "finish"  after rendering, before the batch goes to the store;
//   "commit"  on the strand once the store has committed the batch, before delivery;
//   "deliver" before each event is sent to a connection.
#include <functional>
#include <string>
#include <string_view>

namespace plateau::server {

// `point` is one of the names above, `table` the table's label ("bohnduell 101").
using TableFaultHook = std::function<void(std::string_view point, const std::string& table)>;

// Installs `hook` (empty to remove it). Call while no table runs an action (tests set it
// between commands; the hook itself must be thread-safe if several tables run).
void set_table_fault_hook(TableFaultHook hook);

// Calls the hook if one is installed; whatever it throws propagates.
void table_fault_point(std::string_view point, const std::string& table);

}  // namespace plateau::server
