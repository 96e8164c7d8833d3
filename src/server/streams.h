#pragma once
// The two byte streams of the HTTP port: plain TCP, and TLS over TCP (--tls-cert/--tls-key).
// The HTTP and WebSocket sessions are templates over these, so both share one code path.
#include <boost/beast/core.hpp>
#include <boost/beast/ssl.hpp>
#include <type_traits>

#include "server/asio.h"

namespace plateau::server {

using PlainStream = boost::beast::tcp_stream;
using TlsStream = boost::beast::ssl_stream<boost::beast::tcp_stream>;

template <class Stream>
inline constexpr bool kIsTls = std::is_same_v<Stream, TlsStream>;

}  // namespace plateau::server
