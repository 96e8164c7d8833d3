#!/usr/bin/env bash
# The match measurements of docs/AI.md: every command line below, with its output. Long (about
# an hour on 2 cores); not part of `make test`.
# Usage: bench/ai_matches.sh PATH/TO/plateau [GAME...]   (GAME: bohnduell biloba phutball)
# BohnDuell level 5 plays from the supply-20 table: solve it first, e.g.
#   PLATEAU_TABLES=/tmp/plateau-tables plateau solve bohnduell --supply 20
set -u
plateau=$1
shift
games=${*:-bohnduell biloba phutball}
records=${RECORDS:-/tmp/plateau-match-records}
run() {
  echo "\$ plateau $*"
  local name
  name=$(echo "$*" | tr -c 'a-zA-Z0-9=\n' '_' | cut -c1-80)
  /usr/bin/time -f "(%e s wall, %U s user)" "$plateau" "$@" --records "$records/$name" 2>&1 \
    | tr '\r' '\n' | grep -v '^playing'
  echo
}
for game in $games; do
  case $game in
    bohnduell)
      for pair in "1 random" "greedy random" "2 1" "3 2" "4 3" "5 4" "5 greedy" "5 random"; do
        # Alpha-beta levels are deterministic: 4 random opening plies vary the games.
        run match bohnduell $pair --games 200 --threads 2 --seed 1 --opening-plies 4
      done
      ;;
    biloba)
      for level in 1 2 3 4 5; do
        run match biloba $level random --games 200 --threads 2 --seed 1 --max-plies 1000
      done
      run match biloba 3 classic --games 200 --threads 2 --seed 1 --max-plies 1000
      run match biloba 5 classic --games 200 --threads 2 --seed 1 --max-plies 1000
      run match 'biloba(players=4)' 5 classic classic classic --games 100 --threads 2 --seed 1 \
        --max-plies 2000
      ;;
    phutball)
      for level in 1 2 3 4 5; do
        run match phutball $level random --games 100 --threads 2 --seed 1 --max-plies 1000
      done
      run match phutball 5 greedy --games 100 --threads 2 --seed 1 --max-plies 1000
      run match phutball 5 3 --games 100 --threads 2 --seed 1 --max-plies 1000 --opening-plies 2
      ;;
  esac
done
