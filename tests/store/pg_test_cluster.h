#pragma once
// The PostgreSQL cluster of a test process (tests/store/pg_cluster.sh): started on first use,
// on a free loopback port in a fresh temporary directory, and stopped when the process ends —
// also when it dies (a watchdog process stops it once the test process is gone).
#include <string>

namespace plateau::store::testing {

// The URL of the cluster's database "plateau" (with its password), or "" if there is no
// PostgreSQL server to run (why() says so, for GTEST_SKIP). Throws std::runtime_error when
// the cluster should start and does not.
const std::string& pg_url();
const std::string& pg_skip_reason();
// Empties the database "plateau" (drops and recreates its public schema).
void pg_reset();
// Stops the server at once (like a crash) and starts it again; pg_url() stays valid.
void pg_pause();
void pg_resume();

// A TCP port free on every address now, outside the kernel's ephemeral range, and reserved
// for this process until it exits (a lock file under /tmp/plateau-test-ports; Python tests
// take theirs the same way, plateau_harness.free_port). Throws std::runtime_error when 500
// random tries find none.
int free_port();

}  // namespace plateau::store::testing
