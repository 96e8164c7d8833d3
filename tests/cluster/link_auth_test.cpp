// The node link's secret file and cryptography (cluster/link_auth.h): exact values (computed
// independently with Python's hashlib.blake2b, as tests/cluster/link_test.py speaks the link).
#include "cluster/link_auth.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

namespace plateau::cluster {
namespace {

const std::string kSecret = "0123456789abcdef0123456789abcdef-test";

LinkNonce counting_from(int first) {
  LinkNonce n;
  for (std::size_t i = 0; i < n.size(); ++i) n[i] = static_cast<unsigned char>(first + i);
  return n;
}

std::string write_secret(const std::string& name, const std::string& content, mode_t mode) {
  const auto path = std::filesystem::temp_directory_path() / ("plateau-link-auth-" + name);
  std::ofstream(path, std::ios::binary) << content;
  ::chmod(path.c_str(), mode);
  return path.string();
}

TEST(LinkAuth, KeyOfTheSecret) {
  EXPECT_EQ(to_hex(link_key_of(kSecret)),
            "688891e415cf216082756f0044fc47e19a19f5f069f5a7798b215b35fbbf1035");
}

TEST(LinkAuth, HandshakeAndFrameMacs) {
  const LinkKey key = link_key_of(kSecret);
  const LinkNonce sn = counting_from(0), cn = counting_from(32);
  EXPECT_EQ(to_hex(handshake_mac(key, "client", sn, cn, "b", "a")),
            "47613406023dde58940151c116ce36a223c5042e9bb60f03fd9108bb79c1f72b");
  // Another role, other ids or swapped nonces prove nothing.
  const LinkMac m = handshake_mac(key, "client", sn, cn, "b", "a");
  EXPECT_FALSE(same_mac(m, handshake_mac(key, "server", sn, cn, "b", "a")));
  EXPECT_FALSE(same_mac(m, handshake_mac(key, "client", sn, cn, "a", "b")));
  EXPECT_FALSE(same_mac(m, handshake_mac(key, "client", cn, sn, "b", "a")));
  EXPECT_FALSE(same_mac(m, handshake_mac(key, "client", sn, cn, "ba", "")));
  const LinkKey c2s = session_key(key, "c2s", sn, cn);
  EXPECT_EQ(to_hex(frame_mac(c2s, 5, R"({"t":"ping"})")),
            "1644478e95e68100c85f4fa94fa65b19b7128d4a6cceab899c6a41c2d6c9475e");
  EXPECT_FALSE(same_mac(frame_mac(c2s, 5, "x"), frame_mac(c2s, 6, "x")));
  EXPECT_FALSE(
      same_mac(frame_mac(c2s, 5, "x"), frame_mac(session_key(key, "s2c", sn, cn), 5, "x")));
}

TEST(LinkAuth, HexAndHeaders) {
  LinkNonce n{};
  EXPECT_TRUE(from_hex(to_hex(counting_from(200)), n));
  EXPECT_EQ(n, counting_from(200));
  EXPECT_FALSE(from_hex("00", n));                  // too short
  EXPECT_FALSE(from_hex(std::string(64, 'g'), n));  // not hex
  EXPECT_EQ(frame_header(0x01020304), (std::array<unsigned char, 4>{1, 2, 3, 4}));
  EXPECT_EQ(frame_length({0xff, 0xff, 0xff, 0xff}), 0xffffffffu);
}

TEST(LinkAuth, SecretFile) {
  const std::string good = write_secret("good", kSecret, 0600);
  EXPECT_EQ(read_cluster_secret(good), link_key_of(kSecret));
  auto error_of = [](const std::string& path) {
    try {
      read_cluster_secret(path);
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string shared = write_secret("shared", kSecret, 0604);
  EXPECT_EQ(error_of(shared), "the cluster secret file " + shared +
                                  " may be read or written by its group or others (chmod 600 it)");
  const std::string short_one = write_secret("short", std::string(31, 'x'), 0400);
  EXPECT_EQ(error_of(short_one), "the cluster secret file " + short_one +
                                     " must hold 32 to 4096 bytes (e.g. head -c 32 /dev/urandom "
                                     "| base64)");
  const std::string long_one = write_secret("long", std::string(4097, 'x'), 0600);
  EXPECT_EQ(error_of(long_one), "the cluster secret file " + long_one +
                                    " must hold 32 to 4096 bytes (e.g. head -c 32 /dev/urandom "
                                    "| base64)");
  EXPECT_EQ(error_of("/nonexistent/secret"),
            "cannot read the cluster secret file /nonexistent/secret");
  EXPECT_EQ(error_of("/tmp"), "the cluster secret file /tmp is not a regular file");
  for (const auto& p : {good, shared, short_one, long_one}) std::remove(p.c_str());
}

}  // namespace
}  // namespace plateau::cluster
