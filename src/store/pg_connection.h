#pragma once
// One libpq connection to PostgreSQL, for the PostgreSQL backend (postgres_backend.h): connects,
// runs SQL with parameters (text format, prepared once per connection), and turns failures
// into exceptions whose text never contains the URL's password (redact_url).
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

struct pg_conn;
struct pg_result;

namespace plateau::store::pg {

// A statement failed: `what()` is PostgreSQL's primary message (no DETAIL: it would echo the
// values), `sqlstate()` its five-character code ("23505" unique violation, "23503" foreign key).
class Error : public std::runtime_error {
 public:
  Error(const std::string& message, std::string sqlstate)
      : std::runtime_error(message), sqlstate_(std::move(sqlstate)) {}
  const std::string& sqlstate() const { return sqlstate_; }

 private:
  std::string sqlstate_;
};

// The connection is gone (server stopped, network, admin kill). The Backend reports it as its
// group's commit_error and connects again on its next use.
class ConnectionLost : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// `url` with its password (user:PASSWORD@ or password=... in the query or a key=value string)
// replaced by "***": safe to log and to put in an error message.
std::string redact_url(std::string_view url);

// The values of a statement's $1, $2, ... in order, as text. A string holding a NUL byte is
// refused here (std::invalid_argument): PostgreSQL's text cannot store one, and libpq would cut
// the value at it without a word.
class Params {
 public:
  Params& text(const std::string& value);
  Params& integer(std::int64_t value);
  Params& real(double value);
  std::size_t size() const { return values_.size(); }
  // Pointers into this object, valid while it lives and is not changed.
  std::vector<const char*> pointers() const;

 private:
  std::vector<std::string> values_;
};

// A query's result (owns the PGresult). Rows and columns from 0; values in PostgreSQL's text
// output. A value that does not parse as the asked type throws std::runtime_error.
class Result {
 public:
  explicit Result(pg_result* r);
  ~Result();
  Result(Result&& other) noexcept;
  Result& operator=(Result&& other) noexcept;
  Result(const Result&) = delete;
  int rows() const;
  // Whether this is the end of a pipeline (PGRES_PIPELINE_SYNC).
  bool ok_sync() const;
  std::string text(int row, int column) const;
  std::int64_t integer(int row, int column) const;
  double real(int row, int column) const;

 private:
  pg_result* r_;
};

// One statement of a pipeline (Connection::run_pipeline): `sql` a string literal, as for
// Connection::run; a statement without parameters (BEGIN, SAVEPOINT) is not prepared.
struct Statement {
  const char* sql;
  Params params;
};

class Connection {
 public:
  // Connects to `url` (a libpq URI or key=value string) with client_encoding UTF8, a 10 s
  // connect timeout and TCP keepalives (30 s idle, 3 probes 10 s apart) unless the URL sets
  // them, and synchronous_commit=on (a commit returns once it is durable, whatever the
  // server's default). Throws ConnectionLost naming the redacted URL and libpq's reason.
  explicit Connection(std::string url);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Whether the connection is still up, as far as libpq knows.
  bool ok() const;
  // Connects again (after ConnectionLost); the prepared statements are prepared anew on use.
  // Throws ConnectionLost if the server cannot be reached.
  void reconnect();

  // Runs `sql` (one or more statements, no parameters): migrations, BEGIN, SAVEPOINT.
  void exec(const char* sql);
  void exec(const std::string& sql) { exec(sql.c_str()); }
  // Runs the single statement `sql` with `params`. `sql` must be a string literal: its address
  // names its prepared statement on this connection. Throws Error or ConnectionLost.
  Result run(const char* sql, const Params& params = {});
  // Sends every statement of `statements` at once and then reads their results: one round
  // trip instead of one per statement (libpq's pipeline mode, PostgreSQL 14+). They run in
  // order in the session's open transaction (or one of their own: a BEGIN among them); a
  // statement that fails skips those after it. Returns their results in order; throws Error
  // for the first statement that failed (the transaction is then aborted: the caller rolls it
  // back) or ConnectionLost. Nothing is committed unless a COMMIT is among the statements.
  std::vector<Result> run_pipeline(const std::vector<Statement>& statements);

 private:
  void open();
  // Throws Error or ConnectionLost for `r` unless its status is `ok`; takes ownership of `r`.
  Result check(pg_result* r, const char* what);
  // The name of the prepared statement of `sql` (a literal with `params` parameters),
  // prepared now if it is new on this connection.
  const std::string& prepared(const char* sql, int params);
  // Writes out what libpq holds to send, reading what the server answers meanwhile (so that
  // neither side waits for the other with full buffers). Throws ConnectionLost.
  void flush_pipeline();
  std::vector<Result> pipeline(const std::vector<Statement>& statements,
                               const std::vector<const std::string*>& names);

  std::string url_;
  pg_conn* conn_ = nullptr;
  std::unordered_map<const void*, std::string> prepared_;  // sql literal -> statement name
};

// A transaction on `db`, begun by `begin` ("BEGIN", or "BEGIN ISOLATION LEVEL ..."), rolled back
// on the way out of a failure unless commit() ran (the connection may be gone: a ROLLBACK that
// fails is ignored). commit() throws Error or ConnectionLost as Connection::exec does.
class Transaction {
 public:
  explicit Transaction(Connection& db, const char* begin = "BEGIN") : db_(db) { db_.exec(begin); }
  ~Transaction() {
    if (open_ && db_.ok()) {
      try {
        db_.exec("ROLLBACK");
      } catch (...) {
      }
    }
  }
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  void commit() {
    db_.exec("COMMIT");
    open_ = false;
  }

 private:
  Connection& db_;
  bool open_ = true;
};

}  // namespace plateau::store::pg
