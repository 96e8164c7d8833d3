#include "server/render.h"

#include "server/json_text.h"

namespace plateau::server {

std::shared_ptr<const std::string> RenderedEvent::text() const {
  std::call_once(text_once_,
                 [this] { text_ = std::make_shared<const std::string>(render_text(event_)); });
  return text_;
}

std::shared_ptr<const std::string> RenderedEvent::json() const {
  std::call_once(json_once_,
                 [this] { json_ = std::make_shared<const std::string>(render_json(event_)); });
  return json_;
}

std::string render_text(const Event& event) {
  std::string out;
  const auto& d = event.data;
  if (event.type == "error") {
    out = "error: " + d.value("message", std::string("unknown error")) + "\n";
  } else {
    if (auto it = d.find("lines"); it != d.end() && it->is_array()) {
      for (const auto& line : *it) out += line.get<std::string>() + "\n";
    }
    if (auto it = d.find("text");
        it != d.end() && it->is_string() && !it->get<std::string>().empty()) {
      out += it->get<std::string>() + "\n";
    }
    // The resume token of a login answer (resume_tokens.h) on a line of its own.
    if (auto it = d.find("token"); it != d.end() && it->is_string()) {
      out += "Resume token: " + it->get<std::string>() + "\n";
    }
  }
  if (!event.page.empty()) {
    if (!out.empty()) out += "\n";
    out += event.page;
    if (out.back() != '\n') out += '\n';
  }
  return out;
}

std::string render_json(const Event& event, long long re) {
  nlohmann::json j = event.data;
  j["type"] = event.type;
  if (event.type == "board" || event.type == "challenge" || event.type == "preview")
    j["page"] = event.page;
  if (event.seq > 0) j["seq"] = event.seq;
  if (re >= 0) j["re"] = re;
  // Invalid UTF-8 from a client (chat) is replaced rather than failing the whole event.
  return json_text(j);
}

}  // namespace plateau::server
