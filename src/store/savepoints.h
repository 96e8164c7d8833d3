#pragma once
// The loop both backends run inside a group's transaction (backend.h, commit_group): each batch
// in a savepoint of its own, so that a failing batch is undone alone.
#include <cstddef>
#include <exception>
#include <span>

#include "store/backend.h"
#include "store/batch.h"

namespace plateau::store {

// For each batch, in order: exec("SAVEPOINT batch"), apply(*batch), exec("RELEASE SAVEPOINT
// batch"). A batch that throws is rolled back to its savepoint and its error kept in
// out.batch_errors[i] (sized by the caller); if that rollback fails too (the connection or the
// disk is gone), its error becomes out.commit_error and the loop stops: the caller must not
// commit. SQLite and PostgreSQL take the same statements.
template <class Exec, class Apply>
void apply_in_savepoints(std::span<const Batch* const> batches, GroupOutcome& out, Exec exec,
                         Apply apply) {
  for (std::size_t i = 0; i < batches.size(); ++i) {
    try {
      exec("SAVEPOINT batch");
      apply(*batches[i]);
      exec("RELEASE SAVEPOINT batch");
    } catch (...) {
      out.batch_errors[i] = std::current_exception();
      try {
        exec("ROLLBACK TO SAVEPOINT batch");
        exec("RELEASE SAVEPOINT batch");
      } catch (...) {
        out.commit_error = std::current_exception();
        return;
      }
    }
  }
}

}  // namespace plateau::store
