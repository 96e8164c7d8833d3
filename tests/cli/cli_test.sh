#!/usr/bin/env bash
# The plateau command as a user runs it: exact output, exit statuses, record round trips.
# Usage: cli_test.sh PATH/TO/plateau TEST_DATA_DIR
set -u
plateau=$1
data=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../check.sh"

check "moves at start" "$(printf 'S1\nS2\nS3\nS4')" "$("$plateau" moves bohnduell)"

printf '[Game "bohnduell"]\n[Options "supply=4"]\nA:S1 B:S1\n' > "$tmp/r1.record"
check "moves from record" "H1" "$("$plateau" moves bohnduell --record "$tmp/r1.record")"
check "moves from stdin" "H1" "$("$plateau" moves bohnduell --record - < "$tmp/r1.record")"

expected_board='       B1  B2  B3  B4
[  1]   1   1   1   1
        0   1   1   1  [  0]
       A4  A3  A2  A1
B: supply 0, store 1
A: supply 0, store 0
A to move.'
check "board from record" "$expected_board" "$("$plateau" board bohnduell --record "$tmp/r1.record")"

check "perft" "$(printf '1 4\n2 16')" "$("$plateau" perft 'bohnduell(supply=20)' 2)"

# Biloba: moves, perft, a record with a start position (spec TV-07), the board print-out.
check "biloba moves at start" "68" "$("$plateau" moves biloba | wc -l | tr -d ' ')"
check "biloba 4p first moves" "$(printf 'c9-b8\nc9-c8\nc9-e9')" "$("$plateau" moves 'biloba(players=4)' | head -n 3)"
check "biloba perft" "$(printf '1 68\n2 4506')" "$("$plateau" perft biloba 2)"
printf '[Game "biloba"]\n[Position "##.....##/#.......#/........./........./....*..../..OB...../.....O.../#.....BB#/##....B## O 2"]\nO:F3-E4/C4-D4\n' > "$tmp/b1.record"
expected_biloba='   a b c d e f g h i
9  # # . . . . . # #  9
8  # . . . . . . . #  8
7  . . . . . . . . .  7
6  . . . . . . . . .  6
5  . . . . * . . . .  5
4  . . . O O . . . .  4
3  . . . . . . . . .  3
2  # . . . . . B B #  2
1  # # . . . . B # #  1
   a b c d e f g h i
Blue to move. Pawns: Orange 2, Blue 3.'
check "biloba board from record" "$expected_biloba" "$("$plateau" board biloba --record "$tmp/b1.record")"
check "biloba moves from record" "$(printf 'g1-f1\ng1-f2\ng1-g3')" "$("$plateau" moves biloba --record "$tmp/b1.record" | head -n 3)"
# Phutball (specs/phutball.md): the start, the help-page sample (TV-05) and perft (TV-21).
check "phutball placements at start" "284" "$("$plateau" moves phutball | wc -l | tr -d ' ')"
printf '[Game "phutball"]\n1. H11 2. J12 3. H12 4. K11 5. H14\n' > "$tmp/p5.record"
check "phutball jump moves (TV-05)" "$(printf 'H10-H13\nH10-H13-H15\nH10-H13-L10')" \
  "$("$plateau" moves phutball --record "$tmp/p5.record" | grep -- -)"
check "phutball board of the help sample" "$(sed -n '/^    A B C/,$p' "$data/phutball/help_sample_page.txt")" \
  "$("$plateau" board phutball --record "$data/phutball/help_sample.record")"
check "phutball perft" "$(printf '1 284\n2 80380')" "$("$plateau" perft phutball 2)"
check "phutball(winningways) perft" "$(printf '1 284\n2 80380')" "$("$plateau" perft 'phutball(winningways)' 2)"
check "phutball handicap board" "20  . . . . . . . . . . . . . . .  20" \
  "$("$plateau" board 'phutball(handicap=0.5)' | sed -n 3p)"

# Bad input: exit status 2 and one line on stderr.
bad() {  # bad NAME EXPECTED_MESSAGE ARGS...
  local name=$1 msg=$2; shift 2
  local out status
  out=$("$plateau" "$@" 2>&1 >/dev/null); status=$?
  check "$name: status" "2" "$status"
  check "$name: message" "$msg" "$out"
}
bad "unknown game" "plateau: unknown game 'chess'; games are: biloba, bohnduell, phutball" moves chess
bad "bad option" "plateau: bad value '0' for option supply: expected an integer 1..63" moves 'bohnduell(supply=0)'
bad "missing record" "plateau: cannot read record file '$tmp/none'" board bohnduell --record "$tmp/none"
printf '[Game "bohnduell"]\nA:S4 B:H2\n' > "$tmp/bad.record"
bad "illegal move in record" "plateau: line 2: move 2 (H2) is illegal: H2 is not legal: bowl B2 holds 0 balls, a harvest needs exactly 2" moves bohnduell --record "$tmp/bad.record"
printf '[Game "biloba"]\nO:e7-e5\n' > "$tmp/b2.record"
bad "illegal biloba move" "plateau: line 2: move 1 (e7-e5) is illegal: e7-e5 is not legal: a pawn never stops on the centre e5; a centre walk is written like d6-e5-f5" moves biloba --record "$tmp/b2.record"
printf '[Game "phutball"]\n1. H11 2. H10-H12 3. H12\n' > "$tmp/pbad.record"
bad "illegal phutball move" "plateau: line 2: move 3 (H12) is illegal: point occupied: H12 holds the ball" moves phutball --record "$tmp/pbad.record"
bad "bad phutball handicap" "plateau: bad value '9' for option handicap: expected a multiple of 0.5 from -8.5 to 8.5" board 'phutball(handicap=9)'
bad "perft depth" "plateau: DEPTH: must be a whole number from 1 to 64, got '0' (try --help)" perft bohnduell 0
bad "no subcommand" "plateau: A subcommand is required (try --help)"
bad "bad seats" "plateau: --seats needs 2 entries for bohnduell, got 1 (bohnduell always has 2 seats)" play bohnduell --seats human

"$plateau" --help >/dev/null; check "help status" "0" "$?"
"$plateau" play --help | grep -q -- "--seats"; check "play help mentions --seats" "0" "$?"

# A whole game in the terminal: two random seats, record saved, reloaded to the same position.
"$plateau" play bohnduell --seats random,random --seed 7 --save "$tmp/game.record" > "$tmp/play.out" < /dev/null
check "play exit" "0" "$?"
last_board=$(sed -n '/^Game over/q;p' "$tmp/play.out" | tail -n 6; grep '^Game over' "$tmp/play.out" | head -1)
check "record reproduces the final board" "$last_board" "$("$plateau" board bohnduell --record "$tmp/game.record" | tail -n 7)"
check "no moves after the end" "" "$("$plateau" moves bohnduell --record "$tmp/game.record")"

# A human seat driven through standard input: help, moves, an illegal move, undo, then quit.
printf 'moves\nH1\nS4\nundo\nS3\nquit\n' | "$plateau" play bohnduell --seats human,random --seed 1 --save "$tmp/h.record" > "$tmp/h.out"
check "human play exit" "0" "$?"
grep -q 'S1 S2 S3 S4$' "$tmp/h.out"; check "moves listed" "0" "$?"
grep -q 'Illegal: H1 is not legal: bowl A1 holds 0 balls, a harvest needs exactly 1$' "$tmp/h.out"
check "illegal move explained" "0" "$?"
check "undo then S3 recorded" "A:S3" "$(sed -n '$p' "$tmp/h.record" | cut -d' ' -f1)"

# The AI commands (docs/AI.md).
check "solve supply 8" "$(printf 'Reachable positions: 34206\nStart value (first player'"'"'s final margin): 0\nMove values: S1 -9, S2 -6, S3 -2, S4 0\nBest first moves: S4')" \
  "$("$plateau" solve bohnduell --supply 8 --no-save 2>/dev/null | sed -e 's/ (.* s)$//' | grep -v '^Solving')"
check "solve header states the memory bound" "Solving bohnduell(supply=8): 1287 side tuples, table 1656369 bytes; memory bound 1.9 MB (table 1.7 MB + index 0.2 MB)" \
  "$("$plateau" solve bohnduell --supply 8 --no-save 2>/dev/null | head -1)"
check "solve writes a table" "Table written to $tmp/t8.table (1.7 MB)" \
  "$("$plateau" solve bohnduell --supply 8 --out "$tmp/t8.table" 2>/dev/null | tail -1)"
check "solve loads a table" "Best first moves: S4" \
  "$("$plateau" solve 'bohnduell(supply=8)' --table "$tmp/t8.table" 2>/dev/null | tail -1)"
expected_match='Match bohnduell(supply=6): 5 vs random, 4 games, seats rotated, seed 1
bot         seats   wins  draws losses   points   score
5               4      4      0      0      4.0  100.0%
random          4      0      0      4      0.0    0.0%
Elo 5 - random: +inf [+inf, +inf] (95%), score 100.0% over 4 games
Records: '"$tmp"'/mr/game-0001.record .. game-0004.record'
check "match" "$expected_match" "$("$plateau" match 'bohnduell(supply=6)' 5 random --games 4 --threads 2 --records "$tmp/mr" 2>/dev/null)"
check "match record seats rotated" '[Seats "random,5"]' "$(grep Seats "$tmp/mr/game-0002.record")"
check "match record replays" "" "$("$plateau" moves 'bohnduell(supply=6)' --record "$tmp/mr/game-0003.record")"
bad "solve other games" "plateau: no exact solver for phutball: only bohnduell can be solved" solve phutball
check "classic in a match" "classic         2      2      0      0      2.0  100.0%" \
  "$("$plateau" match biloba classic random --games 2 --records '' 2>/dev/null | sed -n 3p)"
bad "classic needs biloba" "plateau: unknown bot 'classic' for bohnduell; its bots are random, greedy, 1, 2, 3, 4, 5 (or level1..level5)" match bohnduell classic random --games 1 --records ''
bad "match unknown bot" "plateau: unknown bot '7' for biloba; its bots are random, greedy, classic, 1, 2, 3, 4, 5 (or level1..level5)" match biloba 1 7
bad "match seat count" "plateau: BOTS needs 2 entries for bohnduell, got 3 (bohnduell always has 2 seats)" match bohnduell 1 2 3 --records ''
bad "match seat count names the option" "plateau: BOTS needs 2 entries for biloba, got 3; for 3 seats name the game 'biloba(players=3)'" match biloba 1 2 3 --records ''
bad "match seat count out of range" "plateau: BOTS needs 2 entries for biloba, got 5 (biloba has 2 to 4 seats, set by its option 'players')" match biloba 1 2 3 4 5 --records ''

printf '[Game "bohnduell"]\n[Options "supply=8"]\nA:S4 B:S4\n' > "$tmp/a.record"
expected_analysis='Position after 2 moves, A to move.
Best move: S4
Evaluation: 0.500 expected return for A (exact, value 0)
Principal line: A:S4 B:S4 A:S4 B:S4 A:S1 B:S4 A:H4 B:S3 A:S4 B:S4 A:H1 B:S4 A:pass
Search: exact value 0 (bot 5)'
check "analyse level 5" "$expected_analysis" "$("$plateau" analyse bohnduell --record "$tmp/a.record")"
check "analyse greedy" "Best move: S1" "$("$plateau" analyse bohnduell --record "$tmp/a.record" --bot greedy | sed -n 2p)"

"$plateau" play 'bohnduell(supply=4)' --seats 5,greedy --save "$tmp/p.record" < /dev/null > "$tmp/p.out"
check "play with a level and a bot name" "A:S4 B:S1 A:S4 B:pass A:S3" "$(sed -n '$p' "$tmp/p.record")"
bad "play with an unknown bot" "plateau: bad seat 'expert': expected human or a bot that plays bohnduell (random, greedy, 1, 2, 3, 4, 5 (or level1..level5))" play bohnduell --seats human,expert
bad "play with classic outside biloba" "plateau: bad seat 'classic': expected human or a bot that plays bohnduell (random, greedy, 1, 2, 3, 4, 5 (or level1..level5))" play bohnduell --seats human,classic
bad "play seat count names the option" "plateau: --seats needs 2 entries for biloba, got 3; for 3 seats name the game 'biloba(players=3)'" play biloba --seats human,human,human
bad "analyse with classic outside biloba" "plateau: unknown bot 'classic' for phutball; its bots are random, greedy, 1, 2, 3, 4, 5 (or level1..level5)" analyse phutball --bot classic

# The command line itself (issue 19 item 4).
check "version" "plateau 0.1.0" "$("$plateau" --version)"
check "version in a subcommand's help" "plateau 0.1.0" "$("$plateau" perft --help | tail -n 1)"
bad "unknown subcommand names the closest" "plateau: unknown command 'gmaes'; did you mean 'games'? (try --help)" gmaes
bad "unknown subcommand lists the commands" "plateau: unknown command 'xyzzy'; the commands are games, moves, board, perft, play, match, analyse, solve, serve, mail-in, store (try --help)" xyzzy
bad "an unknown subcommand of a subcommand" "plateau: unknown command 'store cpy'; did you mean 'store copy'? (try --help)" store cpy
bad "a numeric argument says its range" "plateau: DEPTH: must be a whole number from 1 to 64, got 'x' (try --help)" perft phutball x
bad "a numeric option says its range" "plateau: --games: must be a whole number from 1 to 1000000, got '0' (try --help)" match bohnduell 1 2 --games 0
bad "a record of another game says which" "plateau: the record is a bohnduell game, not biloba" board biloba --record "$tmp/r1.record"

if [ $failures -ne 0 ]; then echo "$failures failure(s)"; exit 1; fi
echo "all cli checks passed"
