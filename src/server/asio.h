#pragma once
// Boost.Asio for the server. Boost 1.74's awaitable.hpp uses std::exchange without including
// <utility>, which GCC 12 no longer pulls in transitively: include it first.
// clang-format off
#include <utility>
#include <boost/asio.hpp>
// clang-format on
