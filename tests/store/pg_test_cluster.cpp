#include "pg_test_cluster.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <stdexcept>
#include <string>

#include "store/pg_connection.h"

namespace plateau::store::testing {

// Not bind(0): that hands out an ephemeral port, which an outbound connection of a concurrent
// test may take as its source port before the server binds it. A lock file under /tmp/plateau-test-ports that this process holds until it exits: the same
// scheme as tests/integration/plateau_harness.py free_port, so the two never share a port.
int free_port() {
  int low = 32768, high = 60999;
  if (FILE* range = std::fopen("/proc/sys/net/ipv4/ip_local_port_range", "r")) {
    if (std::fscanf(range, "%d %d", &low, &high) != 2) low = 32768, high = 60999;
    std::fclose(range);
  }
  const int first = low > 12000 ? 10000 : high + 1;
  const int last = low > 12000 ? low - 1 : 65535;
  const std::string folder = "/tmp/plateau-test-ports";
  ::mkdir(folder.c_str(), 0777);
  std::srand(static_cast<unsigned>(::getpid()) ^ static_cast<unsigned>(std::time(nullptr)));
  for (int attempt = 0; attempt < 500; ++attempt) {
    const int port = first + std::rand() % (last - first + 1);
    const int lock = ::open((folder + "/" + std::to_string(port)).c_str(), O_CREAT | O_RDWR, 0666);
    if (lock < 0) continue;
    if (::flock(lock, LOCK_EX | LOCK_NB) != 0) {
      ::close(lock);
      continue;
    }
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    const int one = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_ANY);
    addr.sin_port = htons(static_cast<uint16_t>(port));
    const bool free = fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
    if (fd >= 0) ::close(fd);
    if (free) return port;  // the lock stays held (its descriptor is never closed)
    ::close(lock);
  }
  throw std::runtime_error("no free port in " + std::to_string(first) + "-" + std::to_string(last));
}

namespace {


// Runs `command` with the shell; returns its exit status and standard output.
std::pair<int, std::string> run(const std::string& command) {
  std::string out;
  FILE* p = ::popen(command.c_str(), "r");
  if (!p) throw std::runtime_error("cannot run " + command);
  std::array<char, 256> buf{};
  while (std::fgets(buf.data(), buf.size(), p)) out += buf.data();
  const int status = ::pclose(p);
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

class Cluster {
 public:
  Cluster() {
    char tmpl[] = "/tmp/plateau-pg-XXXXXX";
    if (!::mkdtemp(tmpl)) throw std::runtime_error("mkdtemp failed");
    dir_ = tmpl;
    port_ = free_port();
    watchdog();
    auto [status, out] = run(script() + " start " + dir_ + " " + std::to_string(port_));
    if (status == 77) {
      skip_ = "no PostgreSQL server binaries (/usr/lib/postgresql/15/bin; "
              "scripts/install-deps.sh installs postgresql-15) and not root";
    } else if (status != 0) {
      throw std::runtime_error("cannot start the test PostgreSQL cluster (pg_cluster.sh " +
                               std::to_string(status) + ")");
    } else {
      url_ = out;
    }
  }
  ~Cluster() {
    ::close(watchdog_pipe_);  // the watchdog stops the cluster and removes the directory
    ::waitpid(watchdog_pid_, nullptr, 0);
  }
  std::string script() const { return PLATEAU_PG_CLUSTER; }

  std::string dir_;
  int port_ = 0;
  std::string url_;
  std::string skip_;

 private:
  // A child that waits for this process to end (its pipe's other end closes, however the
  // process ends) and then stops the cluster.
  void watchdog() {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
    watchdog_pid_ = ::fork();
    if (watchdog_pid_ == 0) {
      ::close(fds[1]);
      char c;
      while (::read(fds[0], &c, 1) > 0) {
      }
      ::execl("/bin/sh", "sh", "-c", (script() + " stop " + dir_ + " >/dev/null 2>&1").c_str(),
              static_cast<char*>(nullptr));
      ::_exit(1);
    }
    ::close(fds[0]);
    watchdog_pipe_ = fds[1];
  }
  int watchdog_pipe_ = -1;
  pid_t watchdog_pid_ = -1;
};

Cluster& cluster() {
  static Cluster c;  // destroyed at exit: stops the cluster
  return c;
}

}  // namespace

const std::string& pg_url() { return cluster().url_; }
const std::string& pg_skip_reason() { return cluster().skip_; }

void pg_reset() {
  pg::Connection db(pg_url());
  db.exec("DROP SCHEMA public CASCADE; CREATE SCHEMA public");
}

void pg_pause() {
  if (run(cluster().script() + " pause " + cluster().dir_).first != 0)
    throw std::runtime_error("pg_cluster.sh pause failed");
}

void pg_resume() {
  if (run(cluster().script() + " resume " + cluster().dir_ + " " + std::to_string(cluster().port_))
          .first != 0)
    throw std::runtime_error("pg_cluster.sh resume failed");
}

}  // namespace plateau::store::testing
