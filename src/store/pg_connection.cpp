#include "store/pg_connection.h"

#include <libpq-fe.h>
#include <poll.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cerrno>
#include <cstring>
#include <exception>
#include <utility>

namespace plateau::store::pg {

namespace {

bool iequals_at(std::string_view s, std::size_t at, std::string_view word) {
  if (at + word.size() > s.size()) return false;
  for (std::size_t i = 0; i < word.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(s[at + i])) != word[i]) return false;
  }
  return true;
}

using Range = std::pair<std::size_t, std::size_t>;  // start, length

// Where `s` holds a password: user:PASSWORD@ after "://" (up to the last '@': one later in the
// text only hides more, never less), and every "password=VALUE" (a URI query parameter or a
// key=value setting, the value quoted or not). In order, not overlapping.
std::vector<Range> secret_ranges(std::string_view s) {
  std::vector<Range> out;
  std::size_t from = 0;
  if (const std::size_t scheme = s.find("://"); scheme != std::string_view::npos) {
    const std::size_t start = scheme + 3;
    const std::size_t at = s.rfind('@');
    if (at != std::string_view::npos && at > start) {
      const std::size_t colon = s.find(':', start);
      if (colon != std::string_view::npos && colon < at) {
        out.emplace_back(colon + 1, at - colon - 1);
        from = at;
      }
    }
  }
  for (std::size_t at = from; (at = s.find_first_of("pP", at)) != std::string_view::npos;) {
    if (!iequals_at(s, at, "password") ||
        (at > 0 && (std::isalnum(static_cast<unsigned char>(s[at - 1])) || s[at - 1] == '_'))) {
      ++at;
      continue;
    }
    std::size_t i = at + 8;
    while (i < s.size() && s[i] == ' ') ++i;
    if (i >= s.size() || s[i] != '=') {
      at = i;
      continue;
    }
    ++i;
    while (i < s.size() && s[i] == ' ') ++i;
    std::size_t end = i;
    if (end < s.size() && s[end] == '\'') {
      for (++end; end < s.size() && s[end] != '\''; ++end) {
        if (s[end] == '\\') ++end;
      }
      end = std::min(end + 1, s.size());
    } else {
      while (end < s.size() && s[end] != '&' && s[end] != ' ') ++end;
    }
    out.emplace_back(i, end - i);
    at = end;
  }
  return out;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string percent_decoded(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && hex_digit(s[i + 1]) >= 0 && hex_digit(s[i + 2]) >= 0) {
      out += static_cast<char>(hex_digit(s[i + 1]) * 16 + hex_digit(s[i + 2]));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

// The passwords written in `url`, as written and percent-decoded, to hide wherever libpq
// quotes them (its "invalid percent-encoded token: "..."" quotes a badly encoded password).
std::vector<std::string> url_secrets(std::string_view url) {
  std::vector<std::string> out;
  for (auto [start, length] : secret_ranges(url)) {
    if (length == 0) continue;
    out.emplace_back(url.substr(start, length));
    out.push_back(percent_decoded(out.back()));
  }
  return out;
}

// libpq's message of a connection failure, as one line: it may span several ("...refused\n\tIs
// the server running...?"), and the server passes store errors on to clients line by line.
// The URL's passwords are hidden wherever they appear in it.
std::string libpq_reason(const pg_conn* conn, const std::vector<std::string>& secrets) {
  std::string out;
  bool space = false;
  for (const char* p = conn ? PQerrorMessage(conn) : "not connected"; *p; ++p) {
    if (*p == '\n' || *p == '\t' || *p == '\r' || *p == ' ') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += *p;
  }
  for (const std::string& secret : secrets) {
    for (std::size_t at = 0; !secret.empty() && (at = out.find(secret, at)) != std::string::npos;)
      out.replace(at, secret.size(), "***");
  }
  return redact_url(out);
}

}  // namespace

std::string redact_url(std::string_view url) {
  std::string s(url);
  const std::vector<Range> ranges = secret_ranges(url);
  for (auto it = ranges.rbegin(); it != ranges.rend(); ++it) s.replace(it->first, it->second, "***");
  return s;
}

Params& Params::text(const std::string& value) {
  if (value.find('\0') != std::string::npos) {
    throw std::invalid_argument("a text with a NUL byte cannot be stored in PostgreSQL");
  }
  values_.push_back(value);
  return *this;
}

Params& Params::integer(std::int64_t value) {
  values_.push_back(std::to_string(value));
  return *this;
}

Params& Params::real(double value) {
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);  // shortest exact form
  values_.emplace_back(buf, ec == std::errc() ? end : buf);
  return *this;
}

std::vector<const char*> Params::pointers() const {
  std::vector<const char*> p;
  p.reserve(values_.size());
  for (const auto& v : values_) p.push_back(v.c_str());
  return p;
}

Result::Result(pg_result* r) : r_(r) {}
Result::~Result() {
  if (r_) PQclear(r_);
}
Result::Result(Result&& other) noexcept : r_(std::exchange(other.r_, nullptr)) {}
Result& Result::operator=(Result&& other) noexcept {
  if (this != &other) {
    if (r_) PQclear(r_);
    r_ = std::exchange(other.r_, nullptr);
  }
  return *this;
}
int Result::rows() const { return PQntuples(r_); }
bool Result::ok_sync() const { return r_ && PQresultStatus(r_) == PGRES_PIPELINE_SYNC; }
std::string Result::text(int row, int column) const {
  return std::string(PQgetvalue(r_, row, column),
                     static_cast<std::size_t>(PQgetlength(r_, row, column)));
}

std::int64_t Result::integer(int row, int column) const {
  const char* v = PQgetvalue(r_, row, column);
  const char* end = v + PQgetlength(r_, row, column);
  std::int64_t out = 0;
  auto [p, ec] = std::from_chars(v, end, out);
  if (ec != std::errc() || p != end) throw std::runtime_error("not an integer in the database");
  return out;
}

double Result::real(int row, int column) const {
  const char* v = PQgetvalue(r_, row, column);
  const char* end = v + PQgetlength(r_, row, column);
  double out = 0;
  auto [p, ec] = std::from_chars(v, end, out);
  if (ec != std::errc() || p != end) throw std::runtime_error("not a number in the database");
  return out;
}

Connection::Connection(std::string url) : url_(std::move(url)) {
  try {
    open();
  } catch (...) {
    if (conn_) PQfinish(conn_);  // no destructor runs for a constructor that throws
    conn_ = nullptr;
    throw;
  }
}

Connection::~Connection() {
  if (conn_) PQfinish(conn_);
}

void Connection::open() {
  if (conn_) PQfinish(conn_);
  conn_ = nullptr;
  prepared_.clear();
  // Defaults first: the URL (expanded from "dbname") may override them. TCP keepalives
  // after 30 s idle, 3 probes 10 s apart: a database host that vanished without a word (no
  // RST) fails the writer's transaction in about a minute instead of the OS's two hours.
  const char* keys[] = {"connect_timeout",    "client_encoding",     "application_name",
                        "keepalives_idle",    "keepalives_interval", "keepalives_count",
                        "dbname",             nullptr};
  const char* values[] = {"10", "UTF8", "plateau", "30", "10", "3", url_.c_str(), nullptr};
  conn_ = PQconnectdbParams(keys, values, 1);
  if (!conn_ || PQstatus(conn_) != CONNECTION_OK) {
    // libpq's message names the host and user, never the password; the URL is redacted.
    const std::string why = libpq_reason(conn_, url_secrets(url_));
    if (conn_) PQfinish(conn_);  // a failed attempt holds memory too
    conn_ = nullptr;
    throw ConnectionLost("cannot connect to PostgreSQL at " + redact_url(url_) + ": " + why);
  }
  // Notices ("relation already exists, skipping") are not errors; libpq would print them on
  // standard error, outside the server's log.
  PQsetNoticeProcessor(conn_, [](void*, const char*) {}, nullptr);
  Result r = check(PQexec(conn_, "SET synchronous_commit = on"), "SET synchronous_commit");
}

bool Connection::ok() const { return conn_ && PQstatus(conn_) == CONNECTION_OK; }

void Connection::reconnect() { open(); }

Result Connection::check(pg_result* raw, const char* what) {
  Result r(raw);
  const ExecStatusType status = raw ? PQresultStatus(raw) : PGRES_FATAL_ERROR;
  if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) return r;
  if (!ok()) {
    throw ConnectionLost("lost the connection to PostgreSQL (" + std::string(what) +
                         "): " + libpq_reason(conn_, url_secrets(url_)));
  }
  const char* primary = raw ? PQresultErrorField(raw, PG_DIAG_MESSAGE_PRIMARY) : nullptr;
  const char* state = raw ? PQresultErrorField(raw, PG_DIAG_SQLSTATE) : nullptr;
  throw Error(primary ? primary : "PostgreSQL error", state ? state : "");
}

void Connection::exec(const char* sql) { check(PQexec(conn_, sql), "statement"); }

const std::string& Connection::prepared(const char* sql, int params) {
  auto it = prepared_.find(sql);
  if (it == prepared_.end()) {
    std::string name("p");
    name += std::to_string(prepared_.size() + 1);
    check(PQprepare(conn_, name.c_str(), sql, params, nullptr), "prepare");
    it = prepared_.emplace(sql, std::move(name)).first;
  }
  return it->second;
}

Result Connection::run(const char* sql, const Params& params) {
  const std::string& name = prepared(sql, static_cast<int>(params.size()));
  const std::vector<const char*> values = params.pointers();
  return check(PQexecPrepared(conn_, name.c_str(), static_cast<int>(values.size()), values.data(),
                              nullptr, nullptr, 0),
               "query");
}

void Connection::flush_pipeline() {
  for (;;) {
    const int left = PQflush(conn_);
    if (left == 0) return;
    if (left < 0) break;
    pollfd fd{PQsocket(conn_), POLLIN | POLLOUT, 0};
    if (::poll(&fd, 1, -1) < 0 && errno != EINTR) break;
    if ((fd.revents & POLLIN) && !PQconsumeInput(conn_)) break;
  }
  throw ConnectionLost("lost the connection to PostgreSQL (pipeline): " +
                       libpq_reason(conn_, url_secrets(url_)));
}

std::vector<Result> Connection::run_pipeline(const std::vector<Statement>& statements) {
  // Prepared first, one round trip each, once per connection: a pipeline could prepare them
  // too, but this keeps its results one per statement.
  std::vector<const std::string*> names;
  names.reserve(statements.size());
  for (const Statement& st : statements) {
    names.push_back(st.params.size() == 0 ? nullptr
                                          : &prepared(st.sql, static_cast<int>(st.params.size())));
  }
  try {
    return pipeline(statements, names);
  } catch (const ConnectionLost&) {
    // Whatever state the pipeline is in, the session goes: the server rolls back what it did
    // not commit, and the next use connects again.
    PQfinish(conn_);
    conn_ = nullptr;
    throw;
  }
}

std::vector<Result> Connection::pipeline(const std::vector<Statement>& statements,
                                         const std::vector<const std::string*>& names) {
  auto lost = [this](const char* what) {
    return ConnectionLost("lost the connection to PostgreSQL (" + std::string(what) +
                          "): " + libpq_reason(conn_, url_secrets(url_)));
  };
  if (!ok() || !PQenterPipelineMode(conn_)) throw lost("pipeline");
  // Non-blocking while sending: a long pipeline must not wait on a full socket while the
  // server waits on ours.
  if (PQsetnonblocking(conn_, 1) != 0) throw lost("pipeline");
  for (std::size_t i = 0; i < statements.size(); ++i) {
    const std::vector<const char*> values = statements[i].params.pointers();
    const int sent =
        names[i]
            ? PQsendQueryPrepared(conn_, names[i]->c_str(), static_cast<int>(values.size()),
                                  values.data(), nullptr, nullptr, 0)
            : PQsendQueryParams(conn_, statements[i].sql, 0, nullptr, nullptr, nullptr, nullptr, 0);
    if (sent != 1) throw lost("pipeline");
    if (i % 64 == 63) flush_pipeline();
  }
  if (PQpipelineSync(conn_) != 1) throw lost("pipeline sync");
  flush_pipeline();
  if (PQsetnonblocking(conn_, 0) != 0) throw lost("pipeline");
  // Each statement's result, then a null; then the sync's. After a failure the others are
  // PGRES_PIPELINE_ABORTED.
  std::vector<Result> results;
  results.reserve(statements.size());
  std::exception_ptr first_error;
  for (std::size_t i = 0; i < statements.size(); ++i) {
    pg_result* r = PQgetResult(conn_);
    if (!r) throw lost("pipeline results");
    const ExecStatusType status = PQresultStatus(r);
    if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK ||
        status == PGRES_PIPELINE_ABORTED) {
      results.emplace_back(r);
    } else {
      try {
        results.push_back(check(r, "pipeline"));
      } catch (const Error&) {
        if (!first_error) first_error = std::current_exception();
        results.emplace_back(nullptr);
      }
    }
    if (pg_result* extra = PQgetResult(conn_)) {
      PQclear(extra);
      throw lost("pipeline results");
    }
  }
  Result sync(PQgetResult(conn_));
  if (!sync.ok_sync() || !PQexitPipelineMode(conn_)) throw lost("pipeline sync");
  if (first_error) std::rethrow_exception(first_error);
  return results;
}

}  // namespace plateau::store::pg
