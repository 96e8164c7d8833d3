#!/usr/bin/env python3
"""GET /api/games of a real `plateau serve` (issue 13 item 9): every game as it describes itself
(src/games/<game>/), with the exact values of the option schema, presets, seat labels per seat
count, the seat-count and seat-order options, the bot ladders as the bots play them and the
games' own players; and a three-player challenge made only from what the API says (the
seat-count option and the seat labels) seats the players under those labels.
Usage: games_api_test.py PLATEAU_BINARY [TEST_DATA]"""
import json
import sys

from plateau_harness import Server, run_tests

BINARY = sys.argv[1]


def levels(search, budgets, description):
    return [{"level": i + 1, "search": search, "budget": b, "description": description.format(b)}
            for i, b in enumerate(budgets)]


def integer(name, default, lo, hi, help_text):
    return {"name": name, "type": "int", "default": default, "accepted": f"an integer {lo}..{hi}",
            "help": help_text, "min": lo, "max": hi}


def enum(name, default, choices, help_text, kind="enum"):
    return {"name": name, "type": kind, "default": default, "accepted": "|".join(choices),
            "help": help_text, "choices": choices}


def switch(name, words, help_text):
    return enum(name, words[0], words, help_text, kind="bool")


BILOBA_2 = levels("alpha-beta", [100, 800, 4000, 12000, 80000], "alpha-beta, {} nodes")
BILOBA_N = levels("best-reply", [100, 600, 3000, 10000, 30000], "best-reply search, {} nodes")
BOHNDUELL = levels("alpha-beta", [30, 300, 3000, 30000, 300000], "alpha-beta, {} nodes")
BOHNDUELL[4]["description"] = "exact solver, else alpha-beta, 300000 nodes"
PHUTBALL = levels("alpha-beta", [50, 400, 2000, 8000, 25000],
                  "alpha-beta, {} nodes, 24 moves per node")

COLOURS = [("O", "Orange"), ("B", "Blue"), ("R", "Red"), ("G", "Green")]

EXPECTED = [
    {
        "name": "biloba",
        "title": "Biloba",
        "summary": "2-4 players on a 9x9 octagon: capture by sandwiching and refill, as biloba "
                   "0.9.3 plays",
        "min_seats": 2,
        "max_seats": 4,
        "seat_count_option": "players",
        "seat_order_option": None,
        "seats": [{"count": n, "labels": [c[0] for c in COLOURS[:n]],
                   "names": [c[1] for c in COLOURS[:n]]} for n in (2, 3, 4)],
        "options": [
            integer("players", "2", 2, 4, "number of players (orange, blue, red, green)"),
            enum("no_legal_move", "pass", ["pass", "wait"],
                 "a seat without a legal move passes, or waits for ever as the original"),
            integer("turn_cap", "0", 0, 1000000,
                    "stop after this many turns and score a draw (0 = no cap)"),
            integer("no_progress", "300", 0, 1000000,
                    "draw after this many turns in a row without a capture or an elimination "
                    "(0 = never, as the original)"),
        ],
        "presets": [{"name": "classic", "help": "biloba 0.9.3's rules (no no-progress draw; the "
                     "other options at their defaults)", "values": {"no_progress": "0"}}],
        "bots": [{"seats": 2, "levels": BILOBA_2}, {"seats": 3, "levels": BILOBA_N},
                 {"seats": 4, "levels": BILOBA_N}],
        "builtin_players": ["classic"],
    },
    {
        "name": "bohnduell",
        "title": "BohnDuell",
        "summary": "two-player sowing game from Brettspielwelt: 4 bowls, a store and a supply each",
        "min_seats": 2,
        "max_seats": 2,
        "seat_count_option": None,
        "seat_order_option": "start",
        "seats": [{"count": 2, "labels": ["A", "B"], "names": ["A", "B"]}],
        "options": [
            integer("supply", "20", 1, 63, "starting supply N per player"),
            enum("short_supply", "illegal", ["illegal", "partial"],
                 "S k with supply < 5-k: illegal, or fill as far as the supply goes"),
            enum("steal_scope", "target", ["target", "any"],
                 "which empty bowls receiving a supply ball steal"),
            switch("steal_on_harvest", ["no", "yes"],
                   "a harvested ball landing in an empty own bowl steals too"),
            switch("sower_to_store", ["no", "yes"],
                   "the ball that triggered a steal goes into the store too"),
            enum("opposite", "mirror", ["mirror", "same"],
                 "mirror: A d faces B(5-d); same: A d faces B d"),
            enum("leftovers", "nobody", ["nobody", "owner"],
                 "whether balls left in small bowls score for their owner"),
            switch("extra_turn", ["no", "yes"], "another move after a harvest"),
            enum("start", "random", ["random", "1", "2"],
                 "table option: who sits in seat A, which moves first"),
        ],
        "presets": [{"name": "bsw", "help": "the default ruleset (every option at its default)",
                     "values": {}}],
        "bots": [{"seats": 2, "levels": BOHNDUELL}],
        "builtin_players": [],
    },
    {
        "name": "phutball",
        "title": "Phutball",
        "summary": "Philosopher's Football as pbmserv hosted it: place men or jump the ball over "
                   "them to a goal line",
        "min_seats": 2,
        "max_seats": 2,
        "seat_count_option": None,
        "seat_order_option": None,
        "seats": [{"count": 2, "labels": ["O", "X"], "names": ["Ohs", "Eks"]}],
        "options": [
            {"name": "handicap", "type": "decimal", "default": "0",
             "accepted": "a multiple of 0.5 from -8.5 to 8.5",
             "help": "rows the ball starts towards Eks's target (row 1); a half-point adds a row "
                     "(20 rows)", "min": -8.5, "max": 8.5, "step": 0.5},
            enum("own_goal", "lose", ["lose", "illegal"],
                 "a move ending on or beyond the mover's home line: loses, or is illegal"),
            switch("corner_exit", ["off", "on"],
                   "a diagonal hop over a corner point leaves the board as a goal"),
            enum("repetition", "none", ["none", "draw_on_threefold", "superko"],
                 "no rule, a tie at the third occurrence, or no move may recreate a position"),
            integer("ply_cap", "0", 0, 1000000,
                    "the game is a tie after this many plies (0 = no cap)"),
            switch("lenient_path", ["off", "on"],
                   "a path may leave out the ball's point (H13-L10 means H10-H13-L10)"),
        ],
        "presets": [
            {"name": "pbmserv", "help": "the default ruleset, as pbmserv played it (every option "
             "at its default)", "values": {}},
            {"name": "winningways", "help": "the Winning Ways reading: own goals illegal, corner "
             "exits, a tie on threefold repetition",
             "values": {"own_goal": "illegal", "corner_exit": "on",
                        "repetition": "draw_on_threefold"}},
        ],
        "bots": [{"seats": 2, "levels": PHUTBALL}],
        "builtin_players": [],
    },
]


def get_games(server):
    status, body = server.raw_http(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                   b"Connection: close\r\n\r\n")
    assert status == 200, status
    assert body.endswith(b"\n"), body[-20:]
    return json.loads(body)


def test_games_describe_themselves():
    server = Server(BINARY).start()
    try:
        games = get_games(server)
        assert [g["name"] for g in games] == ["biloba", "bohnduell", "phutball"], games
        for got, want in zip(games, EXPECTED):
            for key in want:
                assert got[key] == want[key], (got["name"], key, got[key], want[key])
            assert sorted(got) == sorted(want), (got["name"], sorted(got))
        # The same answer on every request (built once).
        assert get_games(server) == games
    finally:
        assert server.stop() == 0


def test_a_challenge_built_from_the_api():
    """What a client learns from /api/games is what the server does: the seat-count option
    makes a three-player board whose seats carry the labels of `seats` with count 3."""
    server = Server(BINARY).start()
    try:
        biloba = get_games(server)[0]
        option = biloba["seat_count_option"]
        labels = next(s["labels"] for s in biloba["seats"] if s["count"] == 3)
        ben = server.text("ben", "pw-ben-1", register=True)
        ws = server.ws()
        replies, _ = ws.command("register ann pw-ann-1")
        assert replies[0]["type"] == "login", replies
        replies, _ = ws.command(f"biloba challenge -{option}=3 ann ben cpu:1")
        table = [e for e in replies if e.get("seats")]
        assert table, replies
        seats = [(s["label"], s["kind"], s["name"]) for s in table[-1]["seats"]]
        assert seats == [(labels[0], "user", "ann"), (labels[1], "user", "ben"),
                         (labels[2], "cpu", "1")], seats
        assert labels == ["O", "B", "R"], labels
        ws.close()
        ben.close()
    finally:
        assert server.stop() == 0


if __name__ == "__main__":
    run_tests([test_games_describe_themselves, test_a_challenge_built_from_the_api])
