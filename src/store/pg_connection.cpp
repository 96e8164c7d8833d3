#include "store/pg_connection.h"

#include <libpq-fe.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstring>
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

// Replaces every "password=VALUE" (a URI query parameter or a key=value setting, the value
// quoted or not) by "password=***".
std::string redact_password_settings(std::string s) {
  for (std::size_t at = 0; (at = s.find_first_of("pP", at)) != std::string::npos;) {
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
    s.replace(i, end - i, "***");
    at = i + 3;
  }
  return s;
}

// libpq's message of a connection failure, as one line: it may span several ("...refused\n\tIs
// the server running...?"), and the server passes store errors on to clients line by line.
std::string libpq_reason(const pg_conn* conn) {
  std::string out;
  bool space = false;
  for (const char* p = conn ? PQerrorMessage(conn) : "out of memory"; *p; ++p) {
    if (*p == '\n' || *p == '\t' || *p == '\r' || *p == ' ') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += *p;
  }
  return redact_url(out);
}

}  // namespace

std::string redact_url(std::string_view url) {
  std::string s(url);
  const std::size_t scheme = s.find("://");
  if (scheme != std::string::npos) {
    // user:PASSWORD@host: the last '@' ends the credentials (one later in the URL only makes
    // more of it hidden, never less).
    const std::size_t start = scheme + 3;
    const std::size_t at = s.rfind('@');
    if (at != std::string::npos && at > start) {
      const std::size_t colon = s.find(':', start);
      if (colon != std::string::npos && colon < at) s.replace(colon + 1, at - colon - 1, "***");
    }
  }
  return redact_password_settings(std::move(s));
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

Connection::Connection(std::string url) : url_(std::move(url)) { open(); }

Connection::~Connection() {
  if (conn_) PQfinish(conn_);
}

void Connection::open() {
  if (conn_) PQfinish(conn_);
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
    throw ConnectionLost("cannot connect to PostgreSQL at " + redact_url(url_) + ": " +
                         libpq_reason(conn_));
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
                         "): " + libpq_reason(conn_));
  }
  const char* primary = raw ? PQresultErrorField(raw, PG_DIAG_MESSAGE_PRIMARY) : nullptr;
  const char* state = raw ? PQresultErrorField(raw, PG_DIAG_SQLSTATE) : nullptr;
  throw Error(primary ? primary : "PostgreSQL error", state ? state : "");
}

void Connection::exec(const char* sql) { check(PQexec(conn_, sql), "statement"); }

Result Connection::run(const char* sql, const Params& params) {
  auto it = prepared_.find(sql);
  if (it == prepared_.end()) {
    std::string name("p");
    name += std::to_string(prepared_.size() + 1);
    check(PQprepare(conn_, name.c_str(), sql, static_cast<int>(params.size()), nullptr),
          "prepare");
    it = prepared_.emplace(sql, std::move(name)).first;
  }
  const std::vector<const char*> values = params.pointers();
  return check(PQexecPrepared(conn_, it->second.c_str(), static_cast<int>(values.size()),
                              values.data(), nullptr, nullptr, 0),
               "query");
}

}  // namespace plateau::store::pg
