#pragma once
// A minimal Boost.Asio line-echo server: the baseline of the load benchmark (plateau_load
// --echo). It does what any text server must do for a move - read a line, write a line back on
// the same connection - and nothing else (no parsing, no game, no store), so plateau_load can
// report Plateau's moves/s and latency as ratios to bare I/O on the same machine and run.
#include <cstdint>
#include <string>

namespace plateau::bench {

// Listens on `address`:`port` (TCP) and, on every connection, writes back each line it reads
// ('\n'-terminated, at most 64 KiB; a longer one closes the connection), in order, until the
// peer closes. Runs `threads` I/O threads (like `plateau serve --threads`, default 2) and returns
// when the process gets SIGTERM or SIGINT. Throws boost::system::system_error if it cannot bind.
void run_echo_server(const std::string& address, std::uint16_t port, int threads);

}  // namespace plateau::bench
