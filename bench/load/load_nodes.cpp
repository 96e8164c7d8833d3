#include "load_nodes.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>

#include "../../tests/store/pg_test_cluster.h"
#include "echo_server.h"
#include "server/asio.h"
#include "store/pg_connection.h"

namespace plateau::bench {

namespace asio = boost::asio;
using asio::ip::tcp;

void write_cluster_secret(const std::filesystem::path& path) {
  std::ifstream random("/dev/urandom", std::ios::binary);
  std::string secret(32, '\0');
  if (!random.read(secret.data(), static_cast<std::streamsize>(secret.size()))) {
    throw std::runtime_error("cannot read /dev/urandom");
  }
  std::filesystem::create_directories(path.parent_path());
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(secret.data(), static_cast<std::streamsize>(secret.size()));
    if (!out) throw std::runtime_error("cannot write " + path.string());
  }
  std::filesystem::permissions(
      path, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
}

std::uint16_t free_port() {
  return static_cast<std::uint16_t>(store::testing::free_port());
}

long status_kib(pid_t pid, const std::string& field) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(field + ":", 0) == 0) return std::stol(line.substr(field.size() + 1));
  }
  return -1;
}

double cpu_seconds(pid_t pid, bool children) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // Fields after the command name (in parentheses, which may hold spaces): state is field 3;
  // utime, stime, cutime, cstime are fields 14 to 17.
  const auto close = stat.rfind(')');
  if (close == std::string::npos) return -1;
  std::istringstream fields(stat.substr(close + 2));
  std::vector<std::string> f((std::istream_iterator<std::string>(fields)),
                             std::istream_iterator<std::string>());
  if (f.size() < 15) return -1;
  double ticks = std::stod(f[11]) + std::stod(f[12]);
  if (children) ticks += std::stod(f[13]) + std::stod(f[14]);
  return ticks / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

double postgres_cpu_seconds(int port) {
  pid_t postmaster = -1;
  std::error_code ec;
  for (const auto& d : std::filesystem::directory_iterator("/tmp", ec)) {
    if (d.path().filename().string().rfind("plateau-pg-", 0) != 0) continue;
    std::ifstream pidfile(d.path() / "data" / "postmaster.pid");
    std::string pid, dir, started, listen_port;
    if (std::getline(pidfile, pid) && std::getline(pidfile, dir) &&
        std::getline(pidfile, started) && std::getline(pidfile, listen_port) &&
        listen_port == std::to_string(port)) {
      postmaster = std::stoi(pid);
      break;
    }
  }
  if (postmaster <= 0) return -1;
  double total = cpu_seconds(postmaster, true);
  for (const auto& d : std::filesystem::directory_iterator("/proc", ec)) {
    const std::string name = d.path().filename().string();
    if (name.empty() || !std::isdigit(static_cast<unsigned char>(name[0]))) continue;
    std::ifstream in(d.path() / "stat");
    std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto close = stat.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream fields(stat.substr(close + 2));
    std::string state;
    long parent = 0;
    fields >> state >> parent;
    if (parent == postmaster) total += cpu_seconds(std::stoi(name));
  }
  return total;
}

double load_average() {
  std::ifstream in("/proc/loadavg");
  double one = -1;
  in >> one;
  return in ? one : -1;
}

namespace {

// In the child: becomes the echo server or `plateau serve`; never returns.
[[noreturn]] void exec_peer(const PeerSpec& spec, std::uint16_t text_port) {
  if (spec.echo) {
    try {
      run_echo_server("127.0.0.1", text_port, spec.echo_threads);
      std::_Exit(0);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "echo server: %s\n", e.what());
      std::_Exit(1);
    }
  }
  const std::string data = (spec.dir / "data").string();
  const std::string cap = std::to_string(spec.max_connections);
  std::vector<std::string> args = {spec.server, "serve", "--data-dir", data, "--bind", "127.0.0.1",
                                   "--text-port", std::to_string(text_port), "--http-port",
                                   std::to_string(free_port()), "--biloba-port",
                                   std::to_string(free_port()), "--log-level", "warn",
                                   // The robots play faster than a person: no flood limit.
                                   "--rate", "100000",
                                   // Every robot comes from 127.0.0.1.
                                   "--max-connections-per-address", cap, "--max-connections", cap};
  if (spec.threads > 0) args.insert(args.end(), {"--threads", std::to_string(spec.threads)});
  if (!spec.store_url.empty()) args.insert(args.end(), {"--store", spec.store_url});
  if (!spec.node_id.empty()) {
    args.insert(args.end(),
                {"--node-id", spec.node_id, "--node-address",
                 "127.0.0.1:" + std::to_string(text_port), "--node-port",
                 std::to_string(free_port()), "--cluster-secret-file", spec.secret_file.string()});
  }
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  ::execv(spec.server.c_str(), argv.data());
  std::perror("exec");
  std::_Exit(127);
}

bool accepts(std::uint16_t port) {
  asio::io_context io;
  tcp::socket s(io);
  boost::system::error_code ec;
  s.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port), ec);
  return !ec;
}

}  // namespace

Peer start_peer(const PeerSpec& spec) {
  std::filesystem::create_directories(spec.dir);
  Peer peer;
  peer.node_id = spec.node_id;
  peer.text_port = free_port();
  peer.log = (spec.dir / "server.log").string();
  peer.pid = ::fork();
  if (peer.pid < 0) throw std::runtime_error("fork failed");
  if (peer.pid == 0) {
    if (!std::freopen(peer.log.c_str(), "w", stderr)) std::_Exit(126);
    exec_peer(spec, peer.text_port);
  }
  for (int i = 0; i < 200; ++i) {
    if (accepts(peer.text_port)) return peer;
    if (::waitpid(peer.pid, nullptr, WNOHANG) == peer.pid) break;
    ::usleep(50000);
  }
  ::kill(peer.pid, SIGKILL);
  ::waitpid(peer.pid, nullptr, 0);
  throw std::runtime_error(std::string(spec.echo ? "echo server" : "server") +
                           " did not start; see " + peer.log);
}

void kill_peer(Peer& peer) {
  peer.peak_rss_kib = status_kib(peer.pid, "VmHWM");
  ::kill(peer.pid, SIGKILL);
  ::waitpid(peer.pid, nullptr, 0);
  peer.killed = true;
}

void stop_peers(std::vector<Peer>& peers) {
  for (Peer& p : peers) {
    if (p.killed) continue;
    p.peak_rss_kib = status_kib(p.pid, "VmHWM");
    ::kill(p.pid, SIGTERM);
  }
  for (Peer& p : peers) {
    if (p.killed) continue;
    int status = 0;
    ::waitpid(p.pid, &status, 0);
    p.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
}

TakeoverWatch::TakeoverWatch(std::string url, std::string dead_node,
                             std::chrono::milliseconds limit, std::function<void()> done)
    : url_(std::move(url)), dead_(std::move(dead_node)), limit_(limit) {
  const auto start = std::chrono::steady_clock::now();
  thread_ = std::thread([this, start, done = std::move(done)] {
    try {
      store::pg::Connection db(url_);
      bool first = true;
      while (std::chrono::steady_clock::now() - start < limit_) {
        const long owned =
            db.run("SELECT count(*) FROM tables WHERE owner = $1", store::pg::Params().text(dead_))
                .integer(0, 0);
        if (first) tables_ = owned;
        first = false;
        if (owned == 0) {
          took_ = std::chrono::steady_clock::now() - start;
          if (done) done();
          break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
    } catch (const std::exception& e) {
      std::fprintf(stderr, "takeover watch: %s\n", e.what());
    }
    done_ = true;
  });
}

TakeoverWatch::~TakeoverWatch() {
  if (thread_.joinable()) thread_.join();
}

std::chrono::duration<double> TakeoverWatch::wait(long& tables) {
  if (thread_.joinable()) thread_.join();
  tables = tables_;
  return took_;
}

}  // namespace plateau::bench
