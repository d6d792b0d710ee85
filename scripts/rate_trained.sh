#!/usr/bin/env bash
# The tournaments behind the shipped models' cards and the self-play goals (docs/training.md):
# trained:2p against lookahead, mcts:sims=300, greedy and random in 2-player games, and trained:4p
# alone against three lookahead (and three greedy) players in 4-player games. Results in results/rate_*.
#
#   bash scripts/rate_trained.sh [SPEC_2P] [SPEC_4P] [GAMES_2P] [GAMES_MCTS] [GAMES_4P]
set -euo pipefail
A2=${1:-trained:2p}
A4=${2:-trained:4p}
G2=${3:-400}
GM=${4:-200}
G4=${5:-200}
W=${WORKERS:-2}
run() { out=$1; shift; rm -rf "results/$out"; kbenv tournament "$@" --workers "$W" --out "results/$out" | tail -n 4; }
run rate_2p_lookahead --agents "$A2" lookahead --players 2 --games "$G2" --seed 101
run rate_2p_mcts --agents "$A2" mcts:sims=300 --players 2 --games "$GM" --seed 102
run rate_2p_greedy --agents "$A2" greedy --players 2 --games 200 --seed 103
run rate_2p_random --agents "$A2" random --players 2 --games 100 --seed 104
run rate_4p_lookahead --agents "$A4" lookahead --players 4 --games "$G4" --seed 105 --field
run rate_4p_greedy --agents "$A4" greedy --players 4 --games 100 --seed 106 --field
