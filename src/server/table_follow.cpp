// Table::follow_state (table.h): what the node link reports to the node a forwarded command
// came from, so that it follows the table's events there (lobby_forward.cpp).
#include "server/table.h"

namespace plateau::server {

void Table::follow_state(std::shared_ptr<Client> client, std::string user,
                         std::function<void(bool, bool, std::int64_t)> fn) {
  boost::asio::post(strand_, [self = shared_from_this(), client = std::move(client),
                              user = std::move(user), fn = std::move(fn)] {
    fn(self->table_seat_of(user) >= 0, self->is_watching(client), self->seq_);
  });
}

}  // namespace plateau::server
