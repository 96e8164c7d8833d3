#pragma once
// Every resource bound of `plateau serve` in one place (issue 12; docs/SECURITY.md lists each
// with its default and the flag that sets it). Defaults hold on a 2-core machine facing strangers.
// Transports enforce SessionLimits; the lobby and tables enforce LobbyLimits.
#include <chrono>
#include <cstddef>
#include <string>

namespace plateau::server {

// Per connection (text, WebSocket, HTTP) and per listening port.
struct SessionLimits {
  double commands_per_second = 20.0;  // sustained rate (token bucket); --rate
  double burst = 40.0;                // bucket size
  std::size_t max_pending = 100;      // lines waiting while one runs; more is a flood: close
  // Unsent output in bytes (whatever the transport queues in user space); a reader that falls
  // further behind is closed. --max-output-bytes
  std::size_t max_output_bytes = 1u << 20;
  // Open connections from one IP address, all ports together; more are refused at accept.
  // --max-connections-per-address
  std::size_t max_connections_per_address = 32;
  // Open connections in all; more are refused at accept. --max-connections
  std::size_t max_connections = 4000;
  std::chrono::seconds idle_timeout{1800};  // logged in, silent; --idle-timeout
  // A connection that has not logged in (register, login, guest) within this closes.
  // --login-timeout
  std::chrono::seconds login_timeout{60};
  // A partial line (bytes without their line end) older than this closes the connection.
  // --partial-line-timeout
  std::chrono::seconds partial_line_timeout{30};
  // accept() failing for lack of descriptors (EMFILE/ENFILE) waits this long before retrying;
  // the failure is logged at most once per second.
  std::chrono::milliseconds accept_backoff{100};
  // A TLS client that has not finished its handshake within this is dropped (HTTPS/WSS only).
  // --tls-handshake-timeout
  std::chrono::seconds tls_handshake_timeout{10};
};

// Per account, per address, per table.
// `subscribe` (issue 15 item 2): accounts subscribed to one board, and boards one account
// subscribes to, at most.
inline constexpr std::size_t kMaxSubscribersPerBoard = 50;
inline constexpr std::size_t kMaxSubscriptionsPerUser = 30;
// `/invite` (issue 12): users invited to one invisible table, at most (each is kept in the
// table's snapshot and checked on every reach).
inline constexpr std::size_t kMaxInvitedPerTable = 50;

struct LobbyLimits {
  // Tables in set-up or playing that one account created or was challenged into by
  // someone else's command; more are refused. --max-tables-per-user, --max-tables-per-guest
  int max_open_tables_per_user = 20;
  int max_open_tables_per_guest = 3;
  // Failed logins: after each failure for an account or from an address, the next attempt
  // for it waits (refused with "try again in N s") base * 2^(failures-1), capped at max.
  // --login-backoff-base, --login-backoff-max (seconds, fractions allowed)
  std::chrono::milliseconds login_backoff_base{1000};
  std::chrono::milliseconds login_backoff_max{std::chrono::minutes(15)};
  // Names and addresses the login throttle remembers (each kind); past it, the least recently
  // failed is forgotten first. --login-throttle-entries
  std::size_t login_throttle_entries = 100000;
  // Threads that hash passwords (Argon2id), apart from the CPU players' pool. --hash-threads
  int hash_threads = 1;
  // Password hashes (register, login) waiting for those threads, the running ones included;
  // more are refused at once with "server busy". --max-waiting-hashes
  std::size_t max_waiting_hashes = 32;
  // Events kept in memory per table (and read back at start-up) for `resync BOARD SEQ`; a SEQ
  // older than the oldest kept answers an error (docs/PROTOCOL.md). --events-kept
  std::size_t events_kept = 1000;
  // Plies a game may last (issue 14): reached, the game ends drawn among the seats still in play
  // (reason "ply limit"), so that no table runs for ever, e.g. computers alone in a Biloba game
  // with no_progress=0, or a table stored before the no-progress rule. --max-plies
  std::size_t max_plies = 10000;
  // Resume tokens (issue 13, item 6; resume_tokens.h): a token stays valid this long after its
  // last use (issued, resumed, or a connection logged in with it still open). --token-ttl,
  // --guest-token-ttl (seconds). A guest's set-up tables stay while the guest holds a valid token.
  std::chrono::seconds token_ttl{std::chrono::hours(24 * 30)};
  std::chrono::seconds guest_token_ttl{std::chrono::hours(2)};
  // Tokens kept per user (name, any case); one more revokes that user's least recently used.
  // --max-tokens-per-user
  std::size_t max_tokens_per_user = 10;
  // Tokens kept in all; one more revokes the one that would expire first. --max-tokens
  std::size_t max_tokens = 100000;
  // Correspondence time (issue 15, item 5; correspondence_clock.h): the nag and forfeit times
  // in days (0: none) of a board that does not say (-nagtime=, -forfeittime=): challenged by
  // mail (--mail-nagtime, --mail-forfeittime; pbmserv's 7 and 21), or otherwise (--nagtime,
  // --forfeittime).
  int mail_nag_days = 7;
  int mail_forfeit_days = 21;
  int nag_days = 0;
  int forfeit_days = 0;
  // How often the tables' correspondence time is checked (and the daily digest considered).
  std::chrono::milliseconds correspondence_tick{60000};
  // Tests only (wall_clock.h): a file holding the wall clock's offset in ms, read every tick.
  std::string test_clock_offset_file;
  // `analyse BOARD[#n] [LEVEL]` (issue 17 item 7; lobby_analyse.cpp): a bot's search on the
  // workers pool, stopped after analysis_movetime_ms; per user one at a time and at most
  // analysis_burst in a row, then one every analysis_refill_ms; at most max_analyses running
  // in the whole server (more are refused with "busy", never queued behind the CPU players).
  std::int64_t analysis_movetime_ms = 1000;
  int analysis_burst = 10;
  std::int64_t analysis_refill_ms = 3000;
  std::size_t max_analyses = 2;
};

// NIST SP 800-63B §5.1.1.2: memorised secrets of at least 8 characters.
inline constexpr std::size_t kMinPasswordLength = 8;
inline constexpr std::size_t kMaxPasswordLength = 128;

}  // namespace plateau::server
