#include "server/session.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "core/text.h"
#include "server/lobby.h"

namespace plateau::server {

Session::Session(Lobby& lobby, boost::asio::any_io_executor strand, SessionLimits limits)
    : lobby_(lobby),
      strand_(strand),
      limits_(limits),
      idle_(strand),
      login_(strand),
      tokens_(limits.burst),
      last_refill_(std::chrono::steady_clock::now()) {}

void Session::begin() {
  lobby_.connected(std::static_pointer_cast<Client>(shared_from_this()));
  spdlog::info("{}: connected", describe());
  arm_idle();
  arm_login(limits_.login_timeout);
}

void Session::ended() {
  if (ended_) return;
  ended_ = true;
  closing_ = true;
  idle_.cancel();
  login_.cancel();
  slot_.reset();  // the connection is gone, whoever still holds the session
  lobby_.disconnected(std::static_pointer_cast<Client>(shared_from_this()));
  spdlog::info("{}: disconnected{}", describe(), user.empty() ? "" : " (" + user + ")");
}

void Session::send(const Event& event, bool reply) {
  boost::asio::post(strand_,
                    [self = std::static_pointer_cast<Session>(shared_from_this()), event, reply] {
                      if (self->closing_) return;
                      const long long re = reply ? self->current_id_ : -1;
                      if (!self->held_.empty()) {
                        self->hold(std::make_shared<const RenderedEvent>(event), re, false);
                        return;
                      }
                      self->write_event(event, re);
                      self->output_over_limit();
                    });
}

void Session::send_shared(std::shared_ptr<const RenderedEvent> event, bool reply) {
  boost::asio::post(strand_, [self = std::static_pointer_cast<Session>(shared_from_this()),
                              event = std::move(event), reply]() mutable {
    if (self->closing_) return;
    const long long re = reply ? self->current_id_ : -1;
    if (!self->held_.empty()) {
      self->hold(std::move(event), re, false);
      return;
    }
    self->write_shared(*event, re);
    self->output_over_limit();
  });
}

void Session::send_replayed(std::vector<std::shared_ptr<const RenderedEvent>> events) {
  boost::asio::post(strand_, [self = std::static_pointer_cast<Session>(shared_from_this()),
                              events = std::move(events)]() mutable {
    if (self->closing_) return;
    for (auto& e : events) {
      self->held_.push_back({std::move(e), -1, true});
      self->held_bytes_ += kHeldReplayCost;
    }
    self->drain_held();
    self->output_over_limit();
  });
}

void Session::hold(std::shared_ptr<const RenderedEvent> event, long long re, bool replayed) {
  held_bytes_ += replayed ? kHeldReplayCost : shared_size(*event);
  held_.push_back({std::move(event), re, replayed});
  output_over_limit();
}

void Session::drain_held() {
  while (!held_.empty() && !closing_ && pending_output() < limits_.max_output_bytes / 2) {
    Held h = std::move(held_.front());
    held_.pop_front();
    held_bytes_ -= std::min(held_bytes_, h.replayed ? kHeldReplayCost : shared_size(*h.event));
    write_shared(*h.event, h.re);
    if (output_over_limit()) return;
  }
}

bool Session::output_over_limit() {
  if (pending_output() + held_bytes_ <= limits_.max_output_bytes) return false;
  if (!closing_) {
    spdlog::warn("{}: output backlog over {} bytes; closing", describe(), limits_.max_output_bytes);
  }
  // shutdown() drops the output of a session over the limit instead of waiting for it.
  closing_ = true;
  held_.clear();
  held_bytes_ = 0;
  shutdown();
  return true;
}

bool Session::check_utf8(std::string_view text, long long id) {
  const std::size_t bad = first_invalid_utf8(text);
  if (bad == std::string_view::npos) return true;
  write_event(error_event("invalid UTF-8 at byte " + std::to_string(bad) + "; line ignored"), id);
  return false;
}

void Session::close() {
  boost::asio::post(strand_, [self = std::static_pointer_cast<Session>(shared_from_this())] {
    self->closing_ = true;
    self->shutdown();
  });
}

void Session::on_strand(std::function<void()> fn) {
  boost::asio::post(strand_, [self = shared_from_this(), fn = std::move(fn)] { fn(); });
}

bool Session::take_token() {
  const auto now = std::chrono::steady_clock::now();
  const double elapsed = std::chrono::duration<double>(now - last_refill_).count();
  last_refill_ = now;
  tokens_ = std::min(limits_.burst, tokens_ + elapsed * limits_.commands_per_second);
  if (tokens_ < 1.0) return false;
  tokens_ -= 1.0;
  return true;
}

void Session::on_input(std::string line, long long id) {
  if (closing_) return;
  arm_idle();
  if (!check_utf8(line, id)) return;
  if (pending_.size() >= limits_.max_pending) {
    spdlog::warn("{}: more than {} commands waiting; closing", describe(), limits_.max_pending);
    write_event(error_event("too many commands waiting; closing the connection"), id);
    closing_ = true;
    shutdown();
    return;
  }
  pending_.push_back({std::move(line), id});
  pump();
}

void Session::pump() {
  while (!running_ && !pending_.empty() && !closing_) {
    Line line = std::move(pending_.front());
    pending_.pop_front();
    if (!take_token()) {
      write_event(error_event("too many commands: at most " +
                              std::to_string(static_cast<int>(limits_.commands_per_second)) +
                              " per second; command dropped"),
                  line.id);
      continue;
    }
    running_ = true;
    current_id_ = line.id;
    auto self = std::static_pointer_cast<Session>(shared_from_this());
    lobby_.handle(self, line.text, [self] {
      boost::asio::post(self->strand_, [self] {
        self->running_ = false;
        self->current_id_ = -1;
        self->pump();
      });
    });
  }
}

void Session::arm_login(std::chrono::steady_clock::duration after) {
  login_.expires_after(after);
  login_.async_wait(
      [self = std::static_pointer_cast<Session>(shared_from_this())](boost::system::error_code ec) {
        if (ec || self->closing_) return;
        // `user` is written only while this client's command runs (one at a time): look once
        // none is running, so that a login being hashed now counts.
        if (self->running_) {
          self->arm_login(std::chrono::milliseconds(200));
          return;
        }
        if (!self->user.empty()) return;
        spdlog::info("{}: not logged in after {} s; closing", self->describe(),
                     self->limits_.login_timeout.count());
        self->write_event(error_event("not logged in within " +
                                      std::to_string(self->limits_.login_timeout.count()) +
                                      " s (register, login or guest); closing the connection"),
                          -1);
        self->closing_ = true;
        self->shutdown();
      });
}

void Session::arm_idle() {
  idle_.expires_after(limits_.idle_timeout);
  idle_.async_wait(
      [self = std::static_pointer_cast<Session>(shared_from_this())](boost::system::error_code ec) {
        if (ec || self->closing_) return;
        spdlog::info("{}: idle for {} s; closing", self->describe(),
                     self->limits_.idle_timeout.count());
        self->write_event(Event{"bye", {{"text", "Idle timeout: goodbye."}}, {}}, -1);
        self->closing_ = true;
        self->shutdown();
      });
}

}  // namespace plateau::server
