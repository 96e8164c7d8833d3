#pragma once
// A table's events: what everyone at the table heard, numbered 1, 2, 3, ... per table without
// gaps (Event::seq), stored with the change that caused them (store table_events) and kept in
// memory, up to a bound, so that a client can `resync BOARD SEQ` (docs/PROTOCOL.md).
//
// The codec writes an event as the JSON stored in table_events.body: the message the typed
// event (table_event.h) was rendered into (type, data, page: `{"v":1,"type","data","page"}`),
// the form every Plateau since seq numbers has stored, so rows written before typed events and
// after read the same; render_text / render_json turn a decoded row into exactly the bytes the
// live event had. (Storing the typed event instead would let a replay re-render pages, but needs
// the position of every ply: left for a later format version.)
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "server/event.h"
#include "store/store_types.h"

namespace plateau::server {

// The stored row of table event `event` (its seq set) of table `table_id`. Never throws for
// invalid UTF-8 (json_text replaces it).
store::EventRow encode_table_event(std::int64_t table_id, const Event& event);
// The event of a stored row. Throws std::runtime_error naming the seq if the body is not an
// event of this codec (a damaged database).
Event decode_table_event(const store::EventRow& row);

// The last `kept` events of one table, in seq order. Used on the table's strand only.
class EventLog {
 public:
  using Entry = std::shared_ptr<const RenderedEvent>;

  explicit EventLog(std::size_t kept) : kept_(kept == 0 ? 1 : kept) {}
  // Appends `event` (whose seq follows the last one's); the oldest goes past the bound.
  void append(Entry event);
  void clear() { events_.clear(); }
  // Seq of the oldest event kept; 0 if none is.
  std::int64_t first_seq() const { return events_.empty() ? 0 : events_.front()->event().seq; }
  // The events with seq > `after`, in order, if every one of them is still kept (`last` is the
  // table's last seq); nullopt if some were dropped.
  std::optional<std::vector<Entry>> after(std::int64_t after, std::int64_t last) const;
  // The latest "move" event of ply `ply`, or null if it is no longer kept.
  Entry move_of_ply(int ply) const;

 private:
  std::size_t kept_;
  std::deque<Entry> events_;
};

}  // namespace plateau::server
