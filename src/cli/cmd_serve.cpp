// `plateau serve`: the game server (DESIGN.md §5; docs/PROTOCOL.md).
#include <spdlog/spdlog.h>

#include <filesystem>

#include "cli/cli_checks.h"
#include "cli/cli_common.h"
#include "cli/config_file.h"
#include "cli/install_paths.h"
#include "cluster/cluster_db.h"
#include "compat/biloba/legacy_lobby.h"
#include "server/correspondence_clock.h"
#include "server/mail_service.h"
#include "server/origin_check.h"
#include "server/server.h"
#include "store/store_url.h"

namespace plateau::cli {

namespace {

struct ServeOptions {
  server::ServerOptions server;
  biloba::net::LegacyPortOptions biloba;  // the biloba 0.9.3 port (legacy_lobby.h)
  server::MailOptions mail;               // play by e-mail (mail_service.h)
  std::string data_dir = "./data";
  std::string log_level = "info";
  int idle_timeout = 1800;
  int login_timeout = 60;
  int partial_line_timeout = 30;
  int tls_handshake_timeout = 10;
  double rate = 20.0;
  double login_backoff_base = 1.0;  // seconds
  double login_backoff_max = 900.0;
  int token_ttl = 30 * 86400;  // seconds
  int guest_token_ttl = 7200;
  int lmtp_idle_timeout = 300;
  int lmtp_data_timeout = 600;
  std::string config_file = kDefaultConfigFile;  // INI file of these options (config_file.h)
};

}  // namespace

void add_serve_command(CLI::App& app) {
  auto opt = std::make_shared<ServeOptions>();
  auto* cmd = app.add_subcommand("serve", "Run the game server (text, HTTP and WebSocket)");
  opt->server.web_dir = default_web_dir();
  auto* config = cmd->add_option("--config", opt->config_file,
                                 "INI file of these options (\"http-port = 8080\"); the default "
                                 "is read only if it exists; flags override it")
                     ->capture_default_str()
                     ->configurable(false);
  cmd->add_option("--data-dir", opt->data_dir, "Directory of plateau.db")->capture_default_str();
  cmd->add_option("--store", opt->server.store_url,
                  "Database: sqlite:PATH or postgresql://USER[:PASSWORD]@HOST[:PORT]/DATABASE "
                  "(docs/STORE.md; default sqlite:DATA_DIR/plateau.db)")
      ->check([](const std::string& value) { return store::bad_store_url(value); });
  auto* node_id =
      cmd->add_option("--node-id", opt->server.node_id,
                      "This server's name among several nodes on one PostgreSQL --store "
                      "(docs/CLUSTER.md): letters, digits, '.', '_', '-'")
          ->check([](const std::string& value) { return cluster::bad_node_id(value); });
  auto* node_address =
      cmd->add_option("--node-address", opt->server.node_address,
                      "HOST:PORT where clients reach this node (with --node-id)")
          ->check([](const std::string& value) { return cluster::bad_node_address(value); });
  auto* node_port = cmd->add_option("--node-port", opt->server.node_port,
                                    "This node's port for the other nodes (with --node-id)")
                        ->check(whole_number_in(1, 65535));
  auto* secret = cmd->add_option("--cluster-secret-file", opt->server.cluster_secret_file,
                                 "File of the node link's shared secret, the same on every node: "
                                 "32 bytes or more, readable by its owner only (with --node-id)");
  auto* place = cmd->add_option("--place-tables", opt->server.place_tables,
                                "Where new tables of this node's clients go: least-loaded (the "
                                "live node with the fewest tables) or here (with --node-id)")
                    ->check(CLI::IsMember({"least-loaded", "here"}))
                    ->capture_default_str();
  place->needs(node_id);
  node_id->needs(node_address);
  node_id->needs(node_port);
  node_id->needs(secret);
  node_address->needs(node_id);
  node_port->needs(node_id);
  secret->needs(node_id);
  cmd->add_option("--web-dir", opt->server.web_dir,
                  "Built browser client served at / (make builds web/dist; installed: "
                  "share/plateau/web)")
      ->capture_default_str();
  cmd->add_option("--bind", opt->server.bind, "Address to listen on")->capture_default_str();
  cmd->add_option("--http-port", opt->server.http_port, "HTTP and WebSocket (/ws) port")
      ->capture_default_str();
  cmd->add_option("--text-port", opt->server.text_port, "Plain text command port")
      ->capture_default_str();
  cmd->add_option("--biloba-port", opt->biloba.port, "Biloba 0.9.3 protocol port (0 = off)")
      ->capture_default_str();
  cmd->add_option("--biloba-log", opt->biloba.log_file,
                  "Log file of the Biloba 0.9.3 protocol (\"-\" = standard error)");
  cmd->add_option("--threads", opt->server.io_threads, "I/O threads")
      ->capture_default_str()
      ->check(whole_number_in(1, 64));
  cmd->add_option("--workers", opt->server.worker_threads, "Threads for CPU players")
      ->capture_default_str()
      ->check(whole_number_in(1, 64));
  cmd->add_option("--idle-timeout", opt->idle_timeout, "Seconds before an idle connection closes")
      ->capture_default_str()
      ->check(whole_number_in(1, 86400 * 7));
  cmd->add_option("--rate", opt->rate, "Commands per second per connection")
      ->capture_default_str()
      ->check(number_in(1.0, 100000.0));
  auto& limits = opt->server.limits;
  cmd->add_option("--login-timeout", opt->login_timeout,
                  "Seconds a connection may stay without logging in")
      ->capture_default_str()
      ->check(whole_number_in(1, 86400));
  cmd->add_option("--partial-line-timeout", opt->partial_line_timeout,
                  "Seconds an unfinished command line may wait for its end")
      ->capture_default_str()
      ->check(whole_number_in(1, 86400));
  cmd->add_option("--max-output-bytes", limits.max_output_bytes,
                  "Unsent output per connection in bytes; a slower reader is closed")
      ->capture_default_str()
      ->check(whole_number_in(4096LL, 1LL << 30));
  cmd->add_option("--max-connections-per-address", limits.max_connections_per_address,
                  "Open connections from one IP address")
      ->capture_default_str()
      ->check(whole_number_in(1, 1000000));
  cmd->add_option("--max-connections", limits.max_connections, "Open connections in all")
      ->capture_default_str()
      ->check(whole_number_in(1, 1000000));
  auto& lobby_limits = opt->server.lobby_limits;
  cmd->add_option("--max-tables-per-user", lobby_limits.max_open_tables_per_user,
                  "Open tables (set-up or playing) per account")
      ->capture_default_str()
      ->check(whole_number_in(1, 100000));
  cmd->add_option("--max-tables-per-guest", lobby_limits.max_open_tables_per_guest,
                  "Open tables (set-up or playing) per guest")
      ->capture_default_str()
      ->check(whole_number_in(0, 100000));
  cmd->add_option("--hash-threads", lobby_limits.hash_threads,
                  "Threads for password hashing (apart from the CPU players)")
      ->capture_default_str()
      ->check(whole_number_in(1, 64));
  cmd->add_option("--max-waiting-hashes", lobby_limits.max_waiting_hashes,
                  "Password hashes waiting for the hash threads; more logins get \"server busy\"")
      ->capture_default_str()
      ->check(whole_number_in(1, 100000));
  cmd->add_option("--login-backoff-base", opt->login_backoff_base,
                  "Seconds a name or address waits after its first failed login (doubling)")
      ->capture_default_str()
      ->check(number_in(0.001, 86400.0));
  cmd->add_option("--login-backoff-max", opt->login_backoff_max,
                  "Longest wait in seconds after failed logins")
      ->capture_default_str()
      ->check(number_in(0.001, 86400.0 * 7));
  cmd->add_option("--login-throttle-entries", lobby_limits.login_throttle_entries,
                  "Names (and addresses) the login back-off remembers")
      ->capture_default_str()
      ->check(whole_number_in(1, 10000000));
  cmd->add_option("--biloba-max-clicks", opt->biloba.max_clicks,
                  "Clicks kept per biloba 0.9.3 network game")
      ->capture_default_str()
      ->check(whole_number_in(100, 10000000));
  cmd->add_option("--max-plies", lobby_limits.max_plies,
                  "Plies after which a game ends drawn among the seats in play (no table runs "
                  "for ever)")
      ->capture_default_str()
      ->check(whole_number_in(10, 100000000));
  cmd->add_option("--nagtime", lobby_limits.nag_days,
                  "Days without a move before the player to move is reminded, on boards that do "
                  "not set -nagtime= (0 = none; boards challenged by mail: --mail-nagtime)")
      ->capture_default_str()
      ->check(whole_number_in(0, server::kMaxCorrespondenceDays));
  cmd->add_option("--forfeittime", lobby_limits.forfeit_days,
                  "Days without a move before the player to move forfeits, on boards that do not "
                  "set -forfeittime= (0 = never; by mail: --mail-forfeittime)")
      ->capture_default_str()
      ->check(whole_number_in(0, server::kMaxCorrespondenceDays));
  cmd->add_option("--mail-nagtime", lobby_limits.mail_nag_days,
                  "Days before a nag on boards challenged by mail (as --nagtime)")
      ->capture_default_str()
      ->check(whole_number_in(0, server::kMaxCorrespondenceDays));
  cmd->add_option("--mail-forfeittime", lobby_limits.mail_forfeit_days,
                  "Days before a forfeit on boards challenged by mail (as --forfeittime)")
      ->capture_default_str()
      ->check(whole_number_in(0, server::kMaxCorrespondenceDays));
  // Tests only, hence no help (group ""): the wall clock's offset in ms is read from this file
  // (server/wall_clock.h), so that a test runs days of correspondence time in seconds.
  cmd->add_option("--test-clock-offset-file", lobby_limits.test_clock_offset_file)->group("");
  cmd->add_option("--events-kept", lobby_limits.events_kept,
                  "Events kept in memory per table for resync BOARD SEQ")
      ->capture_default_str()
      ->check(whole_number_in(1, 1000000));
  cmd->add_option("--token-ttl", opt->token_ttl,
                  "Seconds an account's resume token stays valid after its last use")
      ->capture_default_str()
      ->check(whole_number_in(1, 86400 * 366));
  cmd->add_option("--guest-token-ttl", opt->guest_token_ttl,
                  "Seconds a guest's resume token (and the guest's set-up tables) stay after "
                  "its last use")
      ->capture_default_str()
      ->check(whole_number_in(1, 86400 * 366));
  cmd->add_option("--max-tokens-per-user", lobby_limits.max_tokens_per_user,
                  "Resume tokens kept per user; a new one revokes the least recently used")
      ->capture_default_str()
      ->check(whole_number_in(1, 1000));
  cmd->add_option("--max-tokens", lobby_limits.max_tokens,
                  "Resume tokens kept in all; a new one revokes the one expiring first")
      ->capture_default_str()
      ->check(whole_number_in(1, 100000000));
  auto* cert = cmd->add_option("--tls-cert", opt->server.tls_cert,
                               "PEM certificate chain: serve HTTPS and WSS on the HTTP port")
                   ->check(CLI::ExistingFile);
  auto* key = cmd->add_option("--tls-key", opt->server.tls_key,
                              "PEM private key (unencrypted) of --tls-cert")
                  ->check(CLI::ExistingFile);
  cert->needs(key);
  key->needs(cert);
  cmd->add_option("--tls-handshake-timeout", opt->tls_handshake_timeout,
                  "Seconds a TLS client may take to finish its handshake")
      ->capture_default_str()
      ->check(whole_number_in(1, 3600));
  cmd->add_option("--allow-origin", opt->server.allowed_origins,
                  "Origin (https://host[:port]) whose pages may open a WebSocket, besides the "
                  "served one; repeatable")
      ->check([](const std::string& value) {
        return server::bad_allowed_origin(value).value_or(std::string());
      });
  cmd->add_option("--lmtp-port", opt->mail.lmtp_port,
                  "LMTP port for incoming mail (play by e-mail, docs/MAIL.md; 0 = off)")
      ->capture_default_str();
  cmd->add_option("--lmtp-bind", opt->mail.lmtp_bind,
                  "Address of the LMTP listener (the local MTA's; not --bind: LMTP skips the "
                  "MTA's sender checks)")
      ->capture_default_str();
  cmd->add_option("--lmtp-idle-timeout", opt->lmtp_idle_timeout,
                  "Seconds an LMTP connection may stay silent (or not read its answers)")
      ->capture_default_str()
      ->check(whole_number_in(1, 86400));
  cmd->add_option("--lmtp-data-timeout", opt->lmtp_data_timeout,
                  "Seconds an LMTP DATA transaction may take in all")
      ->capture_default_str()
      ->check(whole_number_in(1, 86400));
  cmd->add_option("--smtp", opt->mail.smtp_url,
                  "SMTP server for outgoing mail: smtp://HOST[:PORT] or smtps://HOST[:PORT]");
  cmd->add_option("--mail-from", opt->mail.mail_from,
                  "The server's mail address (From of its mail; needed with --lmtp-port/--smtp)");
  cmd->add_option("--max-mail-bytes", opt->mail.lmtp.max_message_bytes,
                  "Largest incoming mail in bytes (larger: 552)")
      ->capture_default_str()
      ->check(whole_number_in(1024LL, 64LL << 20));
  cmd->add_option("--log-level", opt->log_level, "trace, debug, info, warn, error")
      ->capture_default_str();
  cmd->callback([opt, cmd, config] {
    if (config->count() > 0 || std::filesystem::exists(opt->config_file)) {
      apply_config_file(*cmd, opt->config_file);
    }
    if (!opt->server.node_id.empty() &&
        !(!opt->server.store_url.empty() && store::is_postgres_url(opt->server.store_url))) {
      throw CLI::ValidationError("--node-id",
                                 "several nodes need a PostgreSQL store (--store "
                                 "postgresql://...); SQLite serves one machine");
    }
    spdlog::set_level(spdlog::level::from_str(opt->log_level));
    spdlog::set_pattern("%Y-%m-%d %H:%M:%S.%e %^%l%$ %v");
    opt->server.data_dir = opt->data_dir;
    opt->server.limits.idle_timeout = std::chrono::seconds(opt->idle_timeout);
    opt->server.limits.login_timeout = std::chrono::seconds(opt->login_timeout);
    opt->server.limits.partial_line_timeout = std::chrono::seconds(opt->partial_line_timeout);
    opt->server.limits.tls_handshake_timeout = std::chrono::seconds(opt->tls_handshake_timeout);
    opt->server.limits.commands_per_second = opt->rate;
    auto ms = [](double seconds) {
      return std::chrono::milliseconds(static_cast<std::int64_t>(seconds * 1000.0 + 0.5));
    };
    opt->server.lobby_limits.login_backoff_base = ms(opt->login_backoff_base);
    opt->server.lobby_limits.login_backoff_max =
        std::max(ms(opt->login_backoff_max), ms(opt->login_backoff_base));
    opt->server.lobby_limits.token_ttl = std::chrono::seconds(opt->token_ttl);
    if (!opt->server.lobby_limits.test_clock_offset_file.empty()) {
      opt->server.lobby_limits.correspondence_tick = std::chrono::milliseconds(200);
    }
    opt->server.lobby_limits.guest_token_ttl = std::chrono::seconds(opt->guest_token_ttl);
    opt->mail.lmtp.idle_timeout = std::chrono::seconds(opt->lmtp_idle_timeout);
    opt->mail.lmtp.data_timeout = std::chrono::seconds(opt->lmtp_data_timeout);
    opt->server.limits.burst = std::max(40.0, opt->rate * 2);
    opt->server.extra_listeners.clear();
    if (opt->biloba.port != 0) {
      opt->server.extra_listeners.push_back(biloba::net::legacy_port(opt->biloba));
    }
    if (opt->mail.lmtp_port != 0 || !opt->mail.smtp_url.empty()) {
      opt->server.extra_listeners.push_back(server::mail_port(opt->mail));
    }
    server::run_server(opt->server);
  });
}

}  // namespace plateau::cli
