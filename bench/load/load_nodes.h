#pragma once
// The servers plateau_load runs its robots against (docs/PERFORMANCE.md, "Server" and "Server
// on PostgreSQL"): `plateau serve` processes - one on SQLite or PostgreSQL, or several nodes on
// one PostgreSQL database - or the echo server, each a child process on free loopback ports.
#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace plateau::bench {

// Writes 32 random bytes to `path`, readable by its owner only: the node link's shared secret
// (docs/CLUSTER.md, --cluster-secret-file). Throws std::runtime_error if it cannot.
void write_cluster_secret(const std::filesystem::path& path);

// A free TCP port, outside the ephemeral range the 1,000 robots' connections draw from and
// reserved for this process (store::testing::free_port).
std::uint16_t free_port();

// A field of /proc/PID/status in KiB ("VmHWM": peak resident memory, "VmRSS"), -1 if unknown.
long status_kib(pid_t pid, const std::string& field);

// CPU time used by process `pid` so far (user + system), in seconds; with `children`, also by
// its children that ended (a PostgreSQL backend that disconnected). -1 if unknown.
double cpu_seconds(pid_t pid, bool children = false);

// CPU time used by the PostgreSQL cluster listening on `port` (started by pg_cluster.sh in
// /tmp/plateau-pg-*): its postmaster, the backends that ended and those running. -1 if unknown.
double postgres_cpu_seconds(int port);

// The 1-minute load average of the machine (/proc/loadavg), -1 if unknown.
double load_average();

struct PeerSpec {
  std::string server;       // the plateau binary; unused for the echo server
  bool echo = false;        // the echo server (echo_server.h) instead of `plateau serve`
  int echo_threads = 2;     // its I/O threads
  int max_connections = 0;  // --max-connections and --max-connections-per-address
  std::string store_url;    // --store; "" = the default SQLite database in the data directory
  std::string node_id;      // "" = a single server; else --node-id, --node-address, --node-port
  std::filesystem::path secret_file;  // --cluster-secret-file (the node link's), with node_id
  int threads = 0;                    // --threads (I/O threads); 0: the server's default
  std::filesystem::path dir;          // a fresh directory of its own (data directory, log)
};

struct Peer {
  pid_t pid = -1;
  std::uint16_t text_port = 0;
  std::string node_id;
  std::string log;         // its standard error
  bool killed = false;     // SIGKILLed by the run (reaped already)
  long peak_rss_kib = -1;  // VmHWM read just before it was stopped
  int exit_status = -1;    // its exit code after SIGTERM (-1: killed or signalled)
};

// Starts one peer on free ports (its log in spec.dir/server.log) and waits up to 10 s until its
// text port accepts a connection. Throws std::runtime_error naming the log if it does not.
Peer start_peer(const PeerSpec& spec);

// Kills `peer` with SIGKILL and reaps it.
void kill_peer(Peer& peer);

// Reads every running peer's peak memory, sends them all SIGTERM at once (so that no node
// takes over another's tables while they stop) and waits for them.
void stop_peers(std::vector<Peer>& peers);

// Watches the `tables` rows of a PostgreSQL database from a thread of its own after a node was
// killed: done once no table is owned by it any more (every 20 ms), with the time it took.
class TakeoverWatch {
 public:
  // Starts watching now (call right after the kill). Gives up after `limit`. `done` runs on the
  // watch's thread once no table is the dead node's any more (not if it gives up).
  TakeoverWatch(std::string url, std::string dead_node, std::chrono::milliseconds limit,
                std::function<void()> done = {});
  ~TakeoverWatch();
  // Waits for the end of the watch; the time from the start to the last table taken over, or
  // a negative duration if tables were still owned by the dead node at the limit. `tables`:
  // how many tables the dead node owned when the watch started.
  std::chrono::duration<double> wait(long& tables);

 private:
  std::string url_;
  std::string dead_;
  std::chrono::milliseconds limit_;
  std::atomic<bool> done_{false};
  std::chrono::duration<double> took_{-1};
  long tables_ = 0;
  std::thread thread_;
};

}  // namespace plateau::bench
