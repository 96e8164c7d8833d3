// `plateau serve`: the game server (DESIGN.md §5; docs/PROTOCOL.md).
#include <spdlog/spdlog.h>

#include "cli/cli_common.h"
#include "server/server.h"

namespace plateau::cli {

namespace {

struct ServeOptions {
  server::ServerOptions server;
  std::string data_dir = "./data";
  std::string log_level = "info";
  int idle_timeout = 1800;
  double rate = 20.0;
};

}  // namespace

void add_serve_command(CLI::App& app) {
  auto opt = std::make_shared<ServeOptions>();
  auto* cmd = app.add_subcommand("serve", "Run the game server (text, HTTP and WebSocket)");
  cmd->add_option("--data-dir", opt->data_dir, "Directory of plateau.db")->capture_default_str();
  cmd->add_option("--web-dir", opt->server.web_dir,
                  "Built browser client served at / (make builds web/dist)")
      ->capture_default_str();
  cmd->add_option("--bind", opt->server.bind, "Address to listen on")->capture_default_str();
  cmd->add_option("--http-port", opt->server.http_port, "HTTP and WebSocket (/ws) port")
      ->capture_default_str();
  cmd->add_option("--text-port", opt->server.text_port, "Plain text command port")
      ->capture_default_str();
  cmd->add_option("--biloba-port", opt->server.biloba_port,
                  "Biloba 0.9.3 protocol port (0 = off)")
      ->capture_default_str();
  cmd->add_option("--biloba-log", opt->server.biloba_log,
                  "Log file of the Biloba 0.9.3 protocol (\"-\" = standard error)");
  cmd->add_option("--threads", opt->server.io_threads, "I/O threads")
      ->capture_default_str()
      ->check(CLI::Range(1, 64));
  cmd->add_option("--workers", opt->server.worker_threads, "Threads for CPU players")
      ->capture_default_str()
      ->check(CLI::Range(1, 64));
  cmd->add_option("--idle-timeout", opt->idle_timeout, "Seconds before an idle connection closes")
      ->capture_default_str()
      ->check(CLI::Range(1, 86400 * 7));
  cmd->add_option("--rate", opt->rate, "Commands per second per connection")
      ->capture_default_str()
      ->check(CLI::Range(1.0, 100000.0));
  cmd->add_option("--log-level", opt->log_level, "trace, debug, info, warn, error")
      ->capture_default_str();
  cmd->callback([opt] {
    spdlog::set_level(spdlog::level::from_str(opt->log_level));
    spdlog::set_pattern("%Y-%m-%d %H:%M:%S.%e %^%l%$ %v");
    opt->server.data_dir = opt->data_dir;
    opt->server.limits.idle_timeout = std::chrono::seconds(opt->idle_timeout);
    opt->server.limits.commands_per_second = opt->rate;
    opt->server.limits.burst = std::max(40.0, opt->rate * 2);
    server::run_server(opt->server);
  });
}

}  // namespace plateau::cli
