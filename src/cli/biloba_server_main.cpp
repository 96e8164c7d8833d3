// `biloba-server [LOGFILE [DUMPDIR]]`: Plateau's replacement of biloba 0.9.3's standalone
// server (docs/man/biloba-server.6): the port-8000 protocol, byte for byte, with the original's
// faults fixed; games dumped as DUMPDIR/<id>-<name>.blb.
#include <CLI/CLI.hpp>
#include <csignal>
#include <iostream>
#include <memory>
#include <random>

#include "ai/bot.h"
#include "games/register.h"
#include "compat/biloba/discovery.h"
#include "compat/biloba/legacy_server.h"

int main(int argc, char** argv) {
  using namespace plateau::biloba::net;
  plateau::register_builtin_games();
  LegacyServerOptions options;
  bool announce = false;
  double cpu_fill_seconds = 0;
  int cpu_delay_ms = 1000;
  CLI::App app{"biloba-server: the Biloba network game server (biloba 0.9.3 protocol)",
               "biloba-server"};
  app.add_option("logfile", options.log_file, "Log file (\"-\" for standard error)");
  app.add_option("dumpdir", options.dump_dir, "Directory for .blb dumps of finished games")
      ->check(CLI::ExistingDirectory);
  app.add_option("--port", options.port, "TCP port (the original: always 8000)")
      ->capture_default_str();
  app.add_option("--address", options.address, "Listening address")->capture_default_str();
  app.add_flag("--announce", announce,
               "Announce the server on the LAN (UDP broadcast to port 8001), as the server "
               "embedded in the original client does");
  app.add_option("--cpu-level", options.cpu_bot, "Bot for CPU seats")->capture_default_str();
  app.add_option("--cpu-fill", cpu_fill_seconds,
                 "Seconds after which a free network seat is taken by a CPU (0 = never)")
      ->capture_default_str();
  app.add_option("--cpu-delay", cpu_delay_ms, "Milliseconds before each CPU click")
      ->capture_default_str();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  if (!plateau::is_bot_name(options.cpu_bot)) {
    std::cerr << "biloba-server: unknown bot '" << options.cpu_bot << "'\n";
    return 2;
  }
  options.cpu_fill_after = std::chrono::milliseconds(static_cast<long>(cpu_fill_seconds * 1000));
  options.cpu_delay = std::chrono::milliseconds(cpu_delay_ms);
  options.cpu_seed = std::random_device{}();
  try {
    boost::asio::io_context io;
    // CPU seats think on a thread of their own, never on the I/O loop. Declared after `io`, so
    // it is joined before the loop it posts answers to is destroyed.
    boost::asio::thread_pool cpus(1);
    options.cpu_executor = cpus.get_executor();
    LegacyServer server(io.get_executor(), options);
    server.start();
    std::cout << "biloba-server: listening on " << options.address << ":" << server.port()
              << std::endl;
    std::unique_ptr<Announcer> announcer;
    if (announce) {
      announcer = std::make_unique<Announcer>(static_cast<std::int32_t>(std::random_device{}() &
                                                                        0x7FFFFFFF));
    }
    boost::asio::signal_set signals(io, SIGINT, SIGTERM);
    signals.async_wait([&](const boost::system::error_code&, int) {
      std::cout << "Stopping server." << std::endl;
      server.stop();
      io.stop();
    });
    io.run();
    cpus.stop();
    cpus.join();
  } catch (const std::exception& e) {
    std::cerr << "biloba-server: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
