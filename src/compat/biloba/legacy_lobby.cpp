#include "compat/biloba/legacy_lobby.h"

// clang-format off
#include "compat/biloba/legacy_server.h"  // first: Boost 1.74's awaitable.hpp needs <utility>
// clang-format on

#include <spdlog/spdlog.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

#include "compat/biloba/legacy_relay.h"
#include "compat/biloba/lobby_names.h"
#include "server/connection_limit.h"
#include "server/lobby.h"

namespace plateau::biloba::net {

namespace {

// The creator of the mirrored tables: not a valid account name (accounts.h), so no user has a
// creator's say at them.
constexpr const char* kCreator = "biloba 0.9.3";
constexpr const char* kLeft = "a player left the biloba 0.9.3 game";
constexpr const char* kClickLimit = "the biloba 0.9.3 game reached its click limit";
constexpr const char* kRestarted = "the server restarted during the biloba 0.9.3 game";

// The legacy games' tables. The hooks run on the legacy server's strand, one at a time; the
// chat listener runs on a table's strand and only reaches the legacy server through `server`.
struct Bridge {
  Bridge(server::Lobby& l, std::filesystem::path d, std::string bot)
      : lobby(l), dir(std::move(d)), cpu_bot(std::move(bot)) {}

  server::Lobby& lobby;
  const std::filesystem::path dir;
  const std::string cpu_bot;
  // Set by stop(): games cut off by the shutdown leave their tables playing, so that the next
  // start ends them as orphans (Table::end_if_orphaned), whether it follows a stop or a crash.
  std::atomic<bool> stopping{false};
  std::weak_ptr<LegacyServer> legacy;  // for the chat listeners
  struct Mirror {
    std::shared_ptr<server::Table> table;
    std::vector<std::string> names;  // by seat, as the table shows them
  };
  std::map<int, Mirror> tables;  // by legacy game id

  void started(const StartedLegacyGame& game) {
    if (stopping) return;
    Mirror m;
    m.names = lobby_names(game.seat_names);
    std::vector<server::SeatOwner> seats;
    for (std::size_t s = 0; s < m.names.size(); ++s) {
      if (game.cpu[s]) {
        seats.push_back({server::SeatKind::kCpu, cpu_bot});
      } else {
        seats.push_back({server::SeatKind::kLegacy, m.names[s]});
      }
    }
    std::weak_ptr<LegacyServer> weak = legacy;
    const int id = game.id;
    auto relay = [weak, id](const std::string& user, const std::string& text) {
      if (auto s = weak.lock()) s->say(id, user + ": " + text);
    };
    try {
      m.table = lobby.open_external_table(game.game_spec, std::move(seats), kCreator, kRestarted,
                                          relay, nullptr);
    } catch (const std::exception& e) {
      spdlog::error("biloba: game {} has no table: {}", game.id, e.what());
      return;
    }
    spdlog::info("biloba: game {} \"{}\" is {} {}", game.id, game.display_name,
                 m.table->game_name(), m.table->number());
    tables[id] = std::move(m);
  }

  void turn(int id, const std::string& move) {
    auto it = tables.find(id);
    if (stopping || it == tables.end()) return;
    it->second.table->external_move(move, nullptr);
  }

  void chat(int id, int seat, const std::string& text) {
    auto it = tables.find(id);
    if (stopping || it == tables.end()) return;
    const auto& names = it->second.names;
    const std::string line = lobby_chat(text);
    if (line.empty() || seat < 0 || seat >= static_cast<int>(names.size())) return;
    it->second.table->external_say(names[static_cast<std::size_t>(seat)], line, nullptr);
  }

  void finished(const FinishedLegacyGame& game) {
    auto it = tables.find(game.id);
    if (it != tables.end()) {
      if (!stopping)
        it->second.table->end_external(game.click_limit ? kClickLimit : kLeft, nullptr);
      tables.erase(it);
    }
    if (game.record.empty() || game.clicks.records.size() < 3) return;
    std::string file = dump_file_name(game.id, game.name);
    file.replace(file.size() - 4, 4, ".record");
    std::ofstream(dir / file) << game.record;
    spdlog::info("biloba: game {} \"{}\" ended ({} clicks)", game.id, game.display_name,
                 game.clicks.records.size());
  }
};

class LegacyPort final : public server::ExtraListener {
 public:
  LegacyPort(const server::ServerContext& context, const LegacyPortOptions& port) {
    const auto dir = context.options.data_dir / "biloba";
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    LegacyServerOptions legacy;
    legacy.address = context.options.bind;
    legacy.port = port.port;
    legacy.dump_dir = dir.string();
    legacy.log_file = port.log_file;
    legacy.max_clicks = port.max_clicks;
    legacy.accept_backoff = context.options.limits.accept_backoff;
    // CPU seats think on the worker pool (like the lobby's), never on the I/O threads.
    legacy.cpu_executor = context.lobby.workers().get_executor();
    auto connections = context.connections;
    legacy.admit = [connections](const std::string& address) -> std::shared_ptr<const void> {
      server::ConnectionLimit::Refusal why = server::ConnectionLimit::Refusal::kNone;
      auto slot = connections->admit(address, &why);
      if (!slot) spdlog::debug("biloba: refused {}: {}", address, server::refusal_text(why));
      return slot;
    };
    // Game ids continue after the dumps already kept (the original restarted at 1).
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
      const int id = std::atoi(entry.path().filename().string().c_str());
      if (id >= legacy.first_id) legacy.first_id = id + 1;
    }
    bridge_ = std::make_shared<Bridge>(context.lobby, dir, legacy.cpu_bot);
    auto bridge = bridge_;
    legacy.on_started = [bridge](const StartedLegacyGame& g) { bridge->started(g); };
    legacy.on_turn = [bridge](int id, int, const std::string& move) { bridge->turn(id, move); };
    legacy.on_chat = [bridge](int id, int seat, const std::string& text) {
      bridge->chat(id, seat, text);
    };
    legacy.on_finished = [bridge](const FinishedLegacyGame& g) { bridge->finished(g); };
    if (context.link && context.link_handlers) {
      // A node of a cluster: its games are played on the legacy host (legacy_relay.h).
      relay_ = std::make_shared<LegacyRelay>(context.io, *context.link, context.options.node_id);
      auto relay = relay_;
      legacy.divert = [relay](boost::asio::ip::tcp::socket& socket,
                              std::shared_ptr<const void>& slot) {
        return relay->divert(socket, slot);
      };
      context.link_handlers->serve["legacy"] =
          [relay](const cluster::LinkOrigin& from, nlohmann::json frame,
                  std::shared_ptr<cluster::LinkReply> reply) {
            relay->serve(from, frame, std::move(reply));
          };
      context.link_handlers->gone.push_back(
          [relay](const cluster::LinkOrigin& from) { relay->gone(from); });
    }
    server_ = std::make_shared<LegacyServer>(context.io.get_executor(), std::move(legacy));
    if (relay_) relay_->set_server(server_);
    bridge_->legacy = server_;
    try {
      server_->start();
    } catch (const boost::system::system_error& e) {
      throw std::runtime_error("cannot listen on the biloba port: " + std::string(e.what()));
    }
    spdlog::info("listening: biloba 0.9.3 on {}:{}", context.options.bind, server_->port());
  }

  ~LegacyPort() override {
    // The I/O threads have stopped (ExtraListener): drop what the loop did not unwind.
    server_->release_after_stop();
  }

  void stop() override {
    if (relay_) relay_->stop();
    bridge_->stopping = true;
    server_->stop();
  }

 private:
  std::shared_ptr<Bridge> bridge_;
  std::shared_ptr<LegacyRelay> relay_;  // a node of a cluster only
  std::shared_ptr<LegacyServer> server_;
};

}  // namespace

server::ExtraListenerFactory legacy_port(LegacyPortOptions options) {
  return [options](const server::ServerContext& context) -> std::unique_ptr<server::ExtraListener> {
    return std::make_unique<LegacyPort>(context, options);
  };
}

}  // namespace plateau::biloba::net
