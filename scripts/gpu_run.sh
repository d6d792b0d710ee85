#!/bin/bash
# GPU runs of one or more training configs side by side, then the issue-6 target tournaments of each
# final model: 2 players against greedy, and one model against three greedy players (4 players).
# Run from the repository root with OUT set; on a machine without network the Python packages it
# lacks come as wheels in .whl/ (skip with SKIP_PIP=1). Knobs (environment): CONFIGS (default
# configs/strong.yaml), N_ENVS, IMIT (imitation decisions), TRAIN_MIN (PPO wall-time limit), THREADS
# (numba/torch threads per run), WORKERS, G2, G4. $OUT gets 3 files per config plus tournaments.txt.
set -x
T0=$(date +%s)
[ -n "$SKIP_PIP" ] || python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
TOUR="env OMP_NUM_THREADS=1 NUMBA_NUM_THREADS=1 python3 -m kbenv.cli tournament"
nvidia-smi -L 2>/dev/null
NAMES=""
for CONFIG in ${CONFIGS:-configs/strong.yaml}; do
  NAME=$(sed -n 's/^name: *//p' $CONFIG)
  NAMES="$NAMES $NAME"
  sed -e 's/^eval_every:.*/eval_every: 100000000/' -e 's#^out_dir:.*#out_dir: /tmp/runs#' \
      -e "s/^n_envs:.*/n_envs: ${N_ENVS:-128}/" -e 's/^eval_games:.*/eval_games: 4/' -e 's/^eval_opponents:.*/eval_opponents: [greedy]/' $CONFIG > /tmp/$NAME.yaml
  [ -z "$IMIT" ] || sed -i "s/^imitation_samples:.*/imitation_samples: $IMIT/" /tmp/$NAME.yaml
  env NUMBA_NUM_THREADS=${THREADS:-8} OMP_NUM_THREADS=${THREADS:-8} python3 -m kbenv.cli train --config /tmp/$NAME.yaml \
      --max-minutes ${TRAIN_MIN:-3} --quiet 2>&1 | grep -v Warning > $OUT/$NAME.train.log &
done
wait
echo "elapsed after training: $(( $(date +%s) - T0 )) s"
for NAME in $NAMES; do
  R=/tmp/runs/$NAME
  cp $R/model.zip $OUT/$NAME.model.zip; cp $R/model_card.json $OUT/$NAME.model_card.json
  tail -5 $OUT/$NAME.train.log
  $TOUR --agents ppo:path=$R/model.zip greedy --players 2 --games ${G2:-200} --workers ${WORKERS:-15} --quiet --seed 5 --out /tmp/t2_$NAME 2>&1 | tee -a $OUT/tournaments.txt
  $TOUR --agents ppo:path=$R/model.zip greedy --field --players 4 --games ${G4:-100} --workers ${WORKERS:-15} --quiet --seed 6 --out /tmp/t4_$NAME 2>&1 | tee -a $OUT/tournaments.txt
  echo "elapsed: $(( $(date +%s) - T0 )) s"
done
