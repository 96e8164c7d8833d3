#pragma once
// The node link's secret and its cryptography (issue 16 item 2; docs/CLUSTER.md "The node
// link"), all of it libsodium's keyed BLAKE2b (crypto_generichash with a key: a MAC):
//   - the cluster secret is a file of 32 bytes or more that only its owner may read
//     (`plateau serve --cluster-secret-file`); the link key is BLAKE2b-256 of its bytes;
//   - a connection is authenticated both ways by a challenge-response on two fresh random
//     nonces (one chosen by each end), so a recorded handshake cannot be replayed;
//   - then every frame carries a 32-byte MAC under a key of that connection and direction over
//     its number in the connection and its bytes: a frame altered, injected, replayed or
//     reordered closes the link.
// Frames are a 4-byte big-endian length, then that many bytes (at most kMaxLinkFrame).
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace plateau::cluster {

constexpr std::size_t kLinkKeyBytes = 32;
constexpr std::size_t kLinkNonceBytes = 32;
constexpr std::size_t kLinkMacBytes = 32;
// A frame's length bound (its MAC included): a longer announced length closes the link.
constexpr std::size_t kMaxLinkFrame = 1 << 20;
// The secret file's size bounds, in bytes.
constexpr std::size_t kMinSecretBytes = 32;
constexpr std::size_t kMaxSecretBytes = 4096;

using LinkKey = std::array<unsigned char, kLinkKeyBytes>;
using LinkNonce = std::array<unsigned char, kLinkNonceBytes>;
using LinkMac = std::array<unsigned char, kLinkMacBytes>;

// The link key of the secret file `path`. Throws std::runtime_error saying why (cannot be
// read, fewer than 32 or more than 4096 bytes, readable by its group or others) naming the path.
LinkKey read_cluster_secret(const std::string& path);
// The link key of secret bytes `secret` (the file's content; tests).
LinkKey link_key_of(std::string_view secret);

// A fresh random nonce (randombytes_buf).
LinkNonce new_nonce();

// The handshake's proofs: `role` is "client" (the connecting node proves it knows the key) or
// "server" (the listening node's answer); both bind the two nonces and the two node ids, so a
// proof made for one connection is worth nothing on another.
LinkMac handshake_mac(const LinkKey& key, std::string_view role, const LinkNonce& server_nonce,
                      const LinkNonce& client_nonce, std::string_view client_id,
                      std::string_view server_id);
// Constant-time comparison (sodium_memcmp).
bool same_mac(const LinkMac& a, const LinkMac& b);

// The key of one direction of one connection ("c2s" or "s2c"), from the link key and the nonces.
LinkKey session_key(const LinkKey& key, std::string_view direction, const LinkNonce& server_nonce,
                    const LinkNonce& client_nonce);
// The MAC of frame number `counter` (0, 1, 2, ... per direction) with payload `payload`.
LinkMac frame_mac(const LinkKey& key, std::uint64_t counter, std::string_view payload);

// Hex text of bytes, and back (false on a wrong length or a non-hex character).
std::string to_hex(const unsigned char* bytes, std::size_t size);
template <std::size_t N>
std::string to_hex(const std::array<unsigned char, N>& bytes) {
  return to_hex(bytes.data(), N);
}
bool from_hex(std::string_view hex, unsigned char* out, std::size_t size);
template <std::size_t N>
bool from_hex(std::string_view hex, std::array<unsigned char, N>& out) {
  return from_hex(hex, out.data(), N);
}

// The 4-byte big-endian length header of a frame of `size` bytes, and its reading.
std::array<unsigned char, 4> frame_header(std::size_t size);
std::size_t frame_length(const std::array<unsigned char, 4>& header);

}  // namespace plateau::cluster
