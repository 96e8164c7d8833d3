#include "server/mail_message.h"

#include <gmime/gmime.h>

#include <algorithm>
#include <memory>
#include <mutex>

#include "core/text.h"

namespace plateau::server {

namespace {

void init_gmime() {
  static std::once_flag once;
  std::call_once(once, [] { g_mime_init(); });
}

// Owns a GObject reference.
struct Unref {
  void operator()(void* p) const {
    if (p) g_object_unref(p);
  }
};
template <typename T>
using GPtr = std::unique_ptr<T, Unref>;

// A MIME tree can nest without end; a message that nests deeper than this has no body for us.
constexpr int kMaxMimeDepth = 12;
constexpr int kMaxMimeParts = 64;

std::string header(GMimeObject* object, const char* name) {
  const char* v = g_mime_object_get_header(object, name);
  return v ? std::string(trim(v)) : std::string();
}

// The addr-spec inside "<...>" (or the whole text without brackets), trimmed.
std::string angle_address(std::string_view text) {
  text = trim(text);
  const auto lt = text.find('<');
  const auto gt = text.rfind('>');
  if (lt != std::string_view::npos && gt != std::string_view::npos && gt > lt) {
    text = text.substr(lt + 1, gt - lt - 1);
  }
  return std::string(trim(text));
}

// Only a plain addr-spec (local@domain, printable ASCII without spaces or brackets) is used as a
// reply address: anything else could inject headers or SMTP commands.
bool plain_address(std::string_view a) {
  if (a.empty() || a.size() > 254) return false;
  const auto at = a.find('@');
  if (at == 0 || at == std::string_view::npos || at + 1 >= a.size()) return false;
  if (a.find('@', at + 1) != std::string_view::npos) return false;
  for (unsigned char c : a) {
    if (c <= 0x20 || c >= 0x7f || c == '<' || c == '>' || c == '(' || c == ')' || c == ',' ||
        c == ';' || c == ':' || c == '"' || c == '\\' || c == '[' || c == ']')
      return false;
  }
  return true;
}

std::string from_address(GMimeMessage* msg) {
  InternetAddressList* list = g_mime_message_get_from(msg);
  if (!list || internet_address_list_length(list) < 1) return {};
  InternetAddress* ia = internet_address_list_get_address(list, 0);
  if (!ia || !INTERNET_ADDRESS_IS_MAILBOX(ia)) return {};
  const char* addr = internet_address_mailbox_get_addr(INTERNET_ADDRESS_MAILBOX(ia));
  if (!addr) return {};
  std::string a = angle_address(addr);
  return plain_address(a) ? a : std::string();
}

// The first inline text/plain part (depth first), as UTF-8; "" when there is none.
bool find_text(GMimeObject* object, int depth, int& parts, std::string& out) {
  if (!object || depth > kMaxMimeDepth || ++parts > kMaxMimeParts) return false;
  if (GMIME_IS_MULTIPART(object)) {
    GMimeMultipart* mp = GMIME_MULTIPART(object);
    const int n = g_mime_multipart_get_count(mp);
    for (int i = 0; i < n; ++i) {
      if (find_text(g_mime_multipart_get_part(mp, i), depth + 1, parts, out)) return true;
    }
    return false;
  }
  if (!GMIME_IS_TEXT_PART(object)) return false;
  GMimeContentType* ct = g_mime_object_get_content_type(object);
  if (ct && !g_mime_content_type_is_type(ct, "text", "plain")) return false;
  const char* disposition = g_mime_object_get_disposition(object);
  if (disposition && g_ascii_strcasecmp(disposition, "attachment") == 0) return false;
  char* text = g_mime_text_part_get_text(GMIME_TEXT_PART(object));
  if (!text) return false;
  out = text;
  g_free(text);
  return true;
}

std::string one_line(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    out.push_back(u < 0x20 || u == 0x7f ? ' ' : c);
  }
  return std::string(trim(out));
}

// `text` cut to at most `max` bytes, not inside a UTF-8 sequence.
std::string cut_utf8(std::string text, std::size_t max) {
  if (text.size() <= max) return text;
  std::size_t n = max;
  while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) --n;
  text.resize(n);
  return text;
}

bool word_in(std::string_view value, std::initializer_list<std::string_view> words) {
  const std::string lower = to_lower(trim(value));
  for (auto w : words) {
    if (lower == w) return true;
  }
  return false;
}

}  // namespace

bool valid_mail_address(std::string_view address) { return plain_address(address); }

std::string sanitize_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  while (!text.empty()) {
    const std::size_t bad = first_invalid_utf8(text);
    if (bad == std::string_view::npos) {
      out.append(text);
      break;
    }
    out.append(text.substr(0, bad));
    out.append("\xEF\xBF\xBD");
    // Skip the offending byte and any continuation bytes right after it.
    std::size_t skip = 1;
    while (bad + skip < text.size() &&
           (static_cast<unsigned char>(text[bad + skip]) & 0xC0) == 0x80)
      ++skip;
    text.remove_prefix(bad + skip);
  }
  return out;
}

std::string strip_quotes_and_signature(std::string_view text) {
  std::vector<std::string> kept;
  for (auto piece : split(text, '\n')) {
    std::string line(piece);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line == "-- ") break;  // RFC 3676 §4.3 signature separator
    if (!line.empty() && line[0] == '>') {
      // "On <date>, <someone> wrote:" introduces the quote: drop it with the quote.
      while (!kept.empty() && trim(kept.back()).empty()) kept.pop_back();
      if (!kept.empty() && kept.back().size() >= 6 &&
          kept.back().compare(kept.back().size() - 6, 6, "wrote:") == 0)
        kept.pop_back();
      continue;
    }
    kept.push_back(std::move(line));
  }
  while (!kept.empty() && trim(kept.back()).empty()) kept.pop_back();
  std::size_t first = 0;
  while (first < kept.size() && trim(kept[first]).empty()) ++first;
  std::string out;
  for (std::size_t i = first; i < kept.size(); ++i) {
    out += kept[i];
    out += '\n';
  }
  return out;
}

std::optional<InboundMail> parse_mail(std::string_view raw, std::string_view envelope_from,
                                      bool have_envelope) {
  if (trim(raw).empty()) return std::nullopt;
  init_gmime();
  GPtr<GMimeStream> stream(g_mime_stream_mem_new_with_buffer(raw.data(), raw.size()));
  if (!stream) return std::nullopt;
  GPtr<GMimeParser> parser(g_mime_parser_new_with_stream(stream.get()));
  GPtr<GMimeMessage> msg(g_mime_parser_construct_message(parser.get(), nullptr));
  if (!msg) return std::nullopt;
  GMimeObject* object = GMIME_OBJECT(msg.get());
  GMimeHeaderList* headers = g_mime_object_get_header_list(object);
  if (!headers || g_mime_header_list_get_count(headers) == 0) return std::nullopt;

  InboundMail m;
  if (const char* s = g_mime_message_get_subject(msg.get())) {
    m.subject = cut_utf8(one_line(sanitize_utf8(s)), kMaxMailSubjectBytes);
  }
  m.from = from_address(msg.get());
  const std::string rp = have_envelope ? std::string(envelope_from) : header(object, "Return-Path");
  if (have_envelope || !rp.empty()) {
    const std::string a = angle_address(rp);
    if (a.empty())
      m.null_sender = true;
    else if (plain_address(a))
      m.return_path = a;
  }
  if (const char* id = g_mime_message_get_message_id(msg.get())) {
    const std::string i = one_line(id);
    if (plain_address(i)) m.message_id = i;  // id-left "@" id-right, printable: safe to echo
  }
  // The root (first id) and the latest ids (last) are what a reply keeps: a long References
  // keeps its first 300 and last 1,700 bytes (an id cut in two is then dropped as malformed).
  std::string refs = one_line(header(object, "References"));
  if (refs.size() > 2000) refs = refs.substr(0, 300) + " " + refs.substr(refs.size() - 1700);
  m.references = sanitize_utf8(refs);

  int parts = 0;
  std::string text;
  if (find_text(g_mime_message_get_mime_part(msg.get()), 0, parts, text)) {
    m.body = cut_utf8(strip_quotes_and_signature(sanitize_utf8(text)), kMaxMailBodyBytes);
  }

  const std::string auto_submitted = header(object, "Auto-Submitted");
  const std::string precedence = header(object, "Precedence");
  if (m.null_sender) {
    m.automatic = true;
    m.automatic_reason = "null sender";
  } else if (!auto_submitted.empty() &&
             !word_in(auto_submitted.substr(0, auto_submitted.find(';')), {"no"})) {
    m.automatic = true;
    m.automatic_reason = "Auto-Submitted: " + one_line(sanitize_utf8(auto_submitted)).substr(0, 40);
  } else if (word_in(precedence, {"bulk", "junk", "list"})) {
    m.automatic = true;
    m.automatic_reason = "Precedence: " + to_lower(precedence);
  } else if (!header(object, "List-Id").empty()) {
    m.automatic = true;
    m.automatic_reason = "List-Id";
  }
  return m;
}

std::string reply_references(std::string_view references, std::string_view message_id) {
  auto valid = [](std::string_view id) {  // <...@...>, printable ASCII, no spaces or brackets
    if (id.size() < 5 || id.size() > 250 || id.front() != '<' || id.back() != '>') return false;
    const std::string_view inner = id.substr(1, id.size() - 2);
    const auto at = inner.find('@');
    if (at == 0 || at == std::string_view::npos || at + 1 == inner.size()) return false;
    for (char c : inner) {
      const auto u = static_cast<unsigned char>(c);
      if (u <= 0x20 || u >= 0x7f || c == '<' || c == '>') return false;
    }
    return true;
  };
  std::vector<std::string> ids;
  for (std::size_t at = references.find('<'); at != std::string_view::npos;
       at = references.find('<', at + 1)) {
    const auto end = references.find('>', at);
    if (end == std::string_view::npos) break;
    const std::string_view id = references.substr(at, end - at + 1);
    if (valid(id)) ids.emplace_back(id);
  }
  std::string own(1, '<');
  own.append(message_id);
  own += '>';
  std::vector<std::string> kept;
  if (!ids.empty()) kept.push_back(ids.front());
  const std::size_t tail = kMaxReplyReferences - 2;  // room for the root and the mail's own id
  for (std::size_t i = std::max<std::size_t>(1, ids.size() > tail ? ids.size() - tail : 1);
       i < ids.size(); ++i) {
    kept.push_back(ids[i]);
  }
  std::string out;
  for (const auto& id : kept) out += id + " ";
  return valid(own) ? out + own : (out.empty() ? out : out.substr(0, out.size() - 1));
}

std::string signup_address_problem(std::string_view address, std::string_view own) {
  if (!valid_mail_address(address)) return "not a plain address (local@domain)";
  const auto at = address.rfind('@');
  const std::string local(address.substr(0, at));
  const std::string domain = to_lower(address.substr(at + 1));
  if (local.front() == '-' || local.front() == '|') return "the address starts with - or |";
  if (local.find_first_of("%!") != std::string::npos) return "the address holds % or !";
  if (domain.find('.') == std::string::npos || domain.front() == '.' || domain.back() == '.' ||
      domain.find("..") != std::string::npos || domain.front() == '[') {
    return "the domain must be a full domain name (example.org)";
  }
  if (domain == "localhost" || domain.ends_with(".localhost")) return "a local address";
  if (to_lower(address) == to_lower(own)) return "the server's own address";
  return {};
}

std::string encode_header_text(std::string_view text) {
  const bool plain = std::all_of(text.begin(), text.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u >= 0x20 && u < 0x7f;
  });
  if (plain) return std::string(text);
  init_gmime();
  const std::string clean = sanitize_utf8(text);
  char* encoded = g_mime_utils_header_encode_text(nullptr, clean.c_str(), "utf-8");
  if (!encoded) return "?";
  std::string out(encoded);
  g_free(encoded);
  return out;
}

}  // namespace plateau::server
