#pragma once
// The failure of a fenced batch (batch.h FenceTable; issue 16 item 2, docs/CLUSTER.md): the
// table is no longer this node's, or no longer at this epoch, because another node took it
// over. Nothing of the batch is stored. The table that gets it drops itself: another node
// serves it now.
#include <cstdint>
#include <stdexcept>
#include <string>

namespace plateau::store {

class TableFenced : public std::runtime_error {
 public:
  TableFenced(std::int64_t table_id, std::string owner, std::int64_t epoch)
      : std::runtime_error("table " + std::to_string(table_id) + " is served by node " +
                           (owner.empty() ? std::string("(none)") : owner) + " at epoch " +
                           std::to_string(epoch) + " now"),
        table_id_(table_id),
        owner_(std::move(owner)),
        epoch_(epoch) {}
  std::int64_t table_id() const { return table_id_; }
  // The table's owner and epoch as stored (the node that took it over).
  const std::string& owner() const { return owner_; }
  std::int64_t epoch() const { return epoch_; }

 private:
  std::int64_t table_id_;
  std::string owner_;
  std::int64_t epoch_;
};

}  // namespace plateau::store
