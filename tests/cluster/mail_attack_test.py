#!/usr/bin/python3
"""Attacks on mail on several nodes (issue 16; docs/MAIL.md "Several nodes"): damaged rows of
plateau_mail_claims, on a real `plateau serve` node with the test's own PostgreSQL and SMTP sink
(the helpers of mail_cluster_test.py):
  claims    two claims damaged as no node writes them: one claimed 2^31 - 1 times (one more
            claim overflows its INTEGER, which failed the claim statement of every round, so
            no mail at all left any node), one of the live node whose lease runs out in a
            million years (never sent until that node restarts). Both mails and a new board's
            two mails are sent, each once, within seconds;
  restart   PostgreSQL stopped at once (`pg_ctl stop -m immediate`) and started again while
            the node is in the middle of an SMTP transaction, which the SMTP server then
            accepts: the node could not delete the row it sent (the database was gone) and sent
            it again once back; now it deletes it first, and each mail is sent once.
Usage: mail_attack_test.py PLATEAU_BINARY SCENARIO (Debian's python3, for python3-aiosmtpd).
Exits 77 (skipped, saying why) only when the PostgreSQL server binaries are missing."""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mail_cluster_test import (  # noqa: E402
    A, B, HoldingSink, Mailnodes, no_store_failure, subjects, wait_for)
from mail_test import mail_in  # noqa: E402
from pg_cluster import PgCluster  # noqa: E402


def outbox_row(pg, key, to):
    pg.sql(pg.url, "INSERT INTO mail_outbox(key, recipient, message, created_ms) VALUES "
                   f"('{key}', '{to}', E'Subject: {key}\\r\\n\\r\\nhi\\r\\n', 1)")


def test_claims(pg):
    env = Mailnodes(pg, start=("a",))
    try:
        env.signups()
        outbox_row(pg, "poison.1", "carol@example.org")
        outbox_row(pg, "poison.2", "dave@example.org")
        pg.sql(pg.url, "INSERT INTO plateau_mail_claims(key, node, until_ms, attempts) VALUES "
                       "('poison.1', 'gone', 0, 2147483647), "
                       "('poison.2', 'a', 9000000000000000000, 1)")
        got = env.sink.take(2, timeout=10)
        assert [(m["rcpt"][0], m["msg"]["Subject"]) for m in got] == [
            ("carol@example.org", "poison.1"), ("dave@example.org", "poison.2")], subjects(got)
        # Mail keeps flowing after them.
        assert mail_in(env.lmtp["a"], A, "phutball challenge alice bob") == 0
        got = env.sink.take(2, timeout=10)
        assert subjects(got) == [(A, "New Phutball Board 101"), (B, "New Phutball Board 101")]
        wait_for("the outbox to empty",
                 lambda: pg.sql(pg.url, "SELECT count(*) FROM mail_outbox") == [["0"]], 10)
        assert pg.sql(pg.url, "SELECT count(*) FROM plateau_mail_claims") == [["0"]]
        no_store_failure(env)
    finally:
        env.close()


def test_restart(pg):
    sink = HoldingSink(refuse=False)  # a slow mail server
    env = Mailnodes(pg, sink, start=("a",))
    try:
        env.signups()
        sink.hold = True
        assert mail_in(env.lmtp["a"], A, "phutball challenge alice bob") == 0
        with sink.cv:
            assert sink.cv.wait_for(lambda: sink.holding >= 1, 20), "no DATA held"
        pg.pause()
        time.sleep(0.5)
        pg.resume()
        sink.hold = False  # the first mail is accepted now, the database back
        got = sink.take(2, timeout=15)
        assert subjects(got) == [(A, "New Phutball Board 101"), (B, "New Phutball Board 101")]
        time.sleep(2)
        sink.take(0)
        wait_for("the outbox to empty",
                 lambda: pg.sql(pg.url, "SELECT count(*) FROM mail_outbox") == [["0"]], 10)
        log = env.nodes["a"].read_log()
        assert log.count("mail: sent phutball.101.1.1 alice") == 1, log[-3000:]
        assert "sent before the database was lost; its row deleted now" in log, log[-3000:]
    except BaseException:
        print("--- log of a:\n" + env.nodes["a"].read_log()[-3000:], flush=True)
        raise
    finally:
        env.close()


def main():
    scenario = sys.argv[2]
    start = time.time()
    with PgCluster() as pg:
        {"claims": test_claims, "restart": test_restart}[scenario](pg)
    print(f"ok  {scenario} ({time.time() - start:.1f} s)", flush=True)


if __name__ == "__main__":
    main()
