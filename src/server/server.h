#pragma once
// The game server (DESIGN.md §5): owns the I/O threads, the store, the lobby and the listeners
// (text commands, HTTP + WebSocket; the Biloba port is reserved), and shuts down gracefully on
// SIGTERM or SIGINT after the store has written everything it was given.
#include <cstdint>
#include <filesystem>
#include <string>

#include "server/session.h"

namespace plateau::server {

struct ServerOptions {
  std::filesystem::path data_dir = "data";  // holds plateau.db
  std::filesystem::path web_dir = "web/dist";  // the built browser client, served at "/"
  std::string bind = "0.0.0.0";
  std::uint16_t http_port = 8080;
  std::uint16_t text_port = 8023;
  std::uint16_t biloba_port = 8000;  // reserved for the Biloba 0.9.3 protocol (not served yet)
  int io_threads = 2;
  int worker_threads = 2;  // CPU players and password hashing
  SessionLimits limits;
};

// Runs the server until SIGTERM/SIGINT. Returns the process exit status. Throws
// std::runtime_error when the data directory or a port cannot be used.
int run_server(const ServerOptions& options);

}  // namespace plateau::server
