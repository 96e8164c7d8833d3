"""A throw-away PostgreSQL cluster for integration tests (tests/store/pg_cluster.sh does the
work: initdb and pg_ctl of Debian's postgresql-15, as the postgres user when run as root).
    with PgCluster() as pg: ... pg.url, pg.new_database("copy"), pg.sql(url, "SELECT ...")
Exits the test with 77 (skipped, with a line saying why) when the script says there is no
server to run; stops the cluster on the way out, whatever happened."""
import os
import subprocess
import sys
import tempfile
import time

from plateau_harness import Server, free_port

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "store", "pg_cluster.sh")
PSQL = "/usr/lib/postgresql/15/bin/psql"


_SECRET_DIR = None


def cluster_secret_file():
    """A node link secret for `plateau serve --cluster-secret-file` (docs/CLUSTER.md): the same
    file for every node of the test, readable by its owner only."""
    global _SECRET_DIR
    if _SECRET_DIR is None:
        _SECRET_DIR = tempfile.TemporaryDirectory(prefix="plateau-secret-")
    path = os.path.join(_SECRET_DIR.name, "cluster-secret")
    if not os.path.exists(path):
        with open(path, "wb") as f:
            f.write(b"0123456789abcdef0123456789abcdef-test")
        os.chmod(path, 0o600)
    return path


class PgCluster:
    def __enter__(self):
        # Directly under /tmp: the postgres user must reach it.
        self.dir = tempfile.mkdtemp(prefix="plateau-pg-", dir="/tmp")
        self.port = free_port()
        run = subprocess.run([SCRIPT, "start", self.dir, str(self.port)], capture_output=True,
                             text=True)
        if run.returncode == 77:
            print("SKIP: " + run.stderr.strip(), flush=True)
            self.stop()
            sys.exit(77)
        if run.returncode != 0:
            self.stop()
            raise RuntimeError("cannot start PostgreSQL: " + run.stderr)
        self.url = run.stdout.strip()
        return self

    def __exit__(self, *exc):
        self.stop()
        return False

    def stop(self):
        subprocess.run([SCRIPT, "stop", self.dir], capture_output=True)

    def pause(self):
        """Stops the server at once (like a crash), keeping its data."""
        subprocess.run([SCRIPT, "pause", self.dir], capture_output=True, check=True)

    def resume(self):
        subprocess.run([SCRIPT, "resume", self.dir, str(self.port)], capture_output=True,
                       check=True)

    def url_of(self, database):
        return self.url.rsplit("/", 1)[0] + "/" + database

    def new_database(self, name):
        """Creates an empty database `name`; returns its URL."""
        self.sql(self.url, f'CREATE DATABASE "{name}"')
        return self.url_of(name)

    def sql(self, url, query):
        """Runs `query` on `url`; returns its rows as lists of strings."""
        out = subprocess.run([PSQL, url, "-XAt", "-F", "\t", "-c", query], capture_output=True,
                             text=True, check=True).stdout
        return [line.split("\t") for line in out.splitlines()]


def run_scenario(scenarios):
    """The test scenario named by argv[2] (scenarios: name -> function of a PgCluster), on a
    throw-away cluster; prints "ok  NAME (S s)" when it passes."""
    scenario = sys.argv[2]
    start = time.time()
    with PgCluster() as pg:
        scenarios[scenario](pg)
    print(f"ok  {scenario} ({time.time() - start:.1f} s)", flush=True)


def cluster_node(binary, pg, name, extra=(), node_port=None):
    """A `plateau serve` (not started) as node `name` of a cluster on `pg`: its own node address
    and node port (or `node_port`), the test's cluster secret, --rate 1000, and `extra`."""
    return Server(binary, extra=["--store", pg.url, "--node-id", name, "--node-address",
                                 f"127.0.0.1:{free_port()}", "--node-port",
                                 str(node_port or free_port()),
                                 "--cluster-secret-file", cluster_secret_file(),
                                 "--rate", "1000"] + list(extra))
