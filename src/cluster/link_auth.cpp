// The node link's secret, handshake proofs and frame MACs (link_auth.h), on libsodium.
#include "cluster/link_auth.h"

#include <fcntl.h>
#include <sodium.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stdexcept>

namespace plateau::cluster {

namespace {

void init_sodium() {
  if (sodium_init() < 0) throw std::runtime_error("libsodium cannot be initialised");
}

// keyed BLAKE2b-256 over the concatenation of `parts`.
template <typename... Parts>
LinkMac keyed_hash(const LinkKey& key, const Parts&... parts) {
  crypto_generichash_state st;
  crypto_generichash_init(&st, key.data(), key.size(), kLinkMacBytes);
  auto add = [&](std::string_view s) {
    // A length before each part: ("ab", "c") and ("a", "bc") never hash the same.
    const auto h = frame_header(s.size());
    crypto_generichash_update(&st, h.data(), h.size());
    crypto_generichash_update(&st, reinterpret_cast<const unsigned char*>(s.data()), s.size());
  };
  (add(parts), ...);
  LinkMac out;
  crypto_generichash_final(&st, out.data(), out.size());
  return out;
}

std::string_view view(const LinkNonce& n) {
  return {reinterpret_cast<const char*>(n.data()), n.size()};
}

}  // namespace

LinkKey link_key_of(std::string_view secret) {
  init_sodium();
  LinkKey key;
  crypto_generichash_state st;
  crypto_generichash_init(&st, nullptr, 0, key.size());
  static constexpr std::string_view kDomain = "plateau node link v1";
  crypto_generichash_update(&st, reinterpret_cast<const unsigned char*>(kDomain.data()),
                            kDomain.size());
  crypto_generichash_update(&st, reinterpret_cast<const unsigned char*>(secret.data()),
                            secret.size());
  crypto_generichash_final(&st, key.data(), key.size());
  return key;
}

LinkKey read_cluster_secret(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error("cannot read the cluster secret file " + path);
  struct stat st {};
  std::string secret;
  std::string problem;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    problem = "is not a regular file";
  } else if ((st.st_mode & (S_IRWXG | S_IRWXO)) != 0) {
    problem = "may be read or written by its group or others (chmod 600 it)";
  } else if (st.st_size < static_cast<off_t>(kMinSecretBytes) ||
             st.st_size > static_cast<off_t>(kMaxSecretBytes)) {
    problem = "must hold 32 to 4096 bytes (e.g. head -c 32 /dev/urandom | base64)";
  } else {
    secret.resize(static_cast<std::size_t>(st.st_size));
    std::size_t got = 0;
    while (got < secret.size()) {
      const ssize_t n = ::read(fd, secret.data() + got, secret.size() - got);
      if (n <= 0) break;
      got += static_cast<std::size_t>(n);
    }
    if (got != secret.size()) problem = "cannot be read";
  }
  ::close(fd);
  if (!problem.empty()) throw std::runtime_error("the cluster secret file " + path + " " + problem);
  LinkKey key = link_key_of(secret);
  sodium_memzero(secret.data(), secret.size());
  return key;
}

LinkNonce new_nonce() {
  init_sodium();
  LinkNonce n;
  randombytes_buf(n.data(), n.size());
  return n;
}

LinkMac handshake_mac(const LinkKey& key, std::string_view role, const LinkNonce& server_nonce,
                      const LinkNonce& client_nonce, std::string_view client_id,
                      std::string_view server_id) {
  return keyed_hash(key, std::string_view("handshake"), role, view(server_nonce),
                    view(client_nonce), client_id, server_id);
}

bool same_mac(const LinkMac& a, const LinkMac& b) {
  return sodium_memcmp(a.data(), b.data(), a.size()) == 0;
}

LinkKey session_key(const LinkKey& key, std::string_view direction, const LinkNonce& server_nonce,
                    const LinkNonce& client_nonce) {
  return keyed_hash(key, std::string_view("session"), direction, view(server_nonce),
                    view(client_nonce));
}

LinkMac frame_mac(const LinkKey& key, std::uint64_t counter, std::string_view payload) {
  std::array<char, 8> c{};
  for (int i = 0; i < 8; ++i)
    c[static_cast<std::size_t>(i)] = static_cast<char>(counter >> (56 - 8 * i));
  return keyed_hash(key, std::string_view(c.data(), c.size()), payload);
}

std::string to_hex(const unsigned char* bytes, std::size_t size) {
  std::string out(size * 2 + 1, '\0');
  sodium_bin2hex(out.data(), out.size(), bytes, size);
  out.pop_back();
  return out;
}

bool from_hex(std::string_view hex, unsigned char* out, std::size_t size) {
  if (hex.size() != size * 2) return false;
  std::size_t len = 0;
  return sodium_hex2bin(out, size, hex.data(), hex.size(), nullptr, &len, nullptr) == 0 &&
         len == size;
}

std::array<unsigned char, 4> frame_header(std::size_t size) {
  return {static_cast<unsigned char>(size >> 24), static_cast<unsigned char>(size >> 16),
          static_cast<unsigned char>(size >> 8), static_cast<unsigned char>(size)};
}

std::size_t frame_length(const std::array<unsigned char, 4>& h) {
  return (std::size_t{h[0]} << 24) | (std::size_t{h[1]} << 16) | (std::size_t{h[2]} << 8) |
         std::size_t{h[3]};
}

}  // namespace plateau::cluster
