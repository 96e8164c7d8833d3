#pragma once
// The plain text transport (TCP, default port 8023): one command per line, replies as text
// (render_text). Usable with a telnet-like client. Lines longer than kMaxLineBytes get an error
// and are skipped up to their end.
#include <cstdint>
#include <deque>
#include <string>

#include "server/asio.h"
#include "server/session.h"

namespace plateau::server {

class TextSession : public Session {
 public:
  TextSession(Lobby& lobby, boost::asio::ip::tcp::socket socket, SessionLimits limits);
  void start();
  std::string describe() const override { return peer_; }

 private:
  void read();
  void on_read(boost::system::error_code ec, std::size_t n);
  void write_event(const Event& event, long long re) override;
  void write_shared(const RenderedEvent& event, long long re) override;
  void queue_bytes(std::shared_ptr<const std::string> text);
  void shutdown() override;
  std::size_t pending_output() const override { return queued_bytes_; }
  std::size_t shared_size(const RenderedEvent& event) const override {
    return event.text()->size();
  }
  void write_next();
  // Starts or stops the partial-line timer after a read (on the strand).
  void watch_partial_line();

  boost::asio::ip::tcp::socket socket_;
  std::string peer_;
  char buffer_[4096];
  std::string partial_;
  bool discarding_ = false;
  boost::asio::steady_timer partial_timer_;
  std::uint64_t partial_epoch_ = 0;  // which unfinished line the running timer is for
  bool partial_armed_ = false;
  std::deque<std::shared_ptr<const std::string>> out_;
  std::size_t queued_bytes_ = 0;
  bool writing_ = false;
  bool shut_ = false;
};

}  // namespace plateau::server
