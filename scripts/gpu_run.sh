#!/bin/bash
# The GPU run behind docs/runs/2026-11-26-h200 (one H200, 16 cores, no network): (1) an imitation
# sweep of network variants, (2) strong.yaml for a fixed wall time with the better strong-size
# network, (3) the issue-6 target tournaments. Run from the repository root with OUT set to a folder
# for the logs; Python packages missing on the machine come as wheels in .whl/ (skip with SKIP_PIP=1).
# Sizes can be lowered for a dry run: SAMPLES, SG, IMIT, STEPS, TRAIN_MIN, WORKERS, G2, G4, GR.
# The sweep ran on the code of that day: quick-size variants then imitated with best-set labels.
set -x
T0=$(date +%s)
[ -n "$SKIP_PIP" ] || python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
export TOUR="env OMP_NUM_THREADS=1 NUMBA_NUM_THREADS=1 python3 -m kbenv.cli tournament"
nvidia-smi -L
python3 -c "import numba, numpy, torch, sb3_contrib; print('numba', numba.__version__, 'numpy', numpy.__version__, 'torch', torch.__version__, torch.cuda.is_available())"
S=${SAMPLES:-100000}
NUMBA_NUM_THREADS=4 python3 scripts/imitation_sweep.py --config configs/quick.yaml --samples $S --held-out 5000 --games ${SG:-100} --workers 4 --out /tmp/sweep \
  --variant old board_planes=false context=false imitation_epochs=2 \
  --variant new imitation_epochs=2 \
  --variant planes context=false imitation_epochs=2 \
  --variant ctx board_planes=false imitation_epochs=2 \
  --variant old_lr3 board_planes=false context=false imitation_epochs=2 imitation_lr=0.003 \
  --variant new_lr3 imitation_epochs=2 imitation_lr=0.003 \
  --variant old64 board_planes=false context=false imitation_epochs=2 channels=64 blocks=4 head_channels=8 \
  --variant new64 imitation_epochs=2 channels=64 blocks=4 head_channels=8 2>&1 | grep -v Warning | tee $OUT/sweep.log
:
FLAGS=$(python3 -c "
import json
rows = {r['variant']: r for r in json.load(open('/tmp/sweep/sweep.json'))}
new = rows.get('new64', {}).get('held_out_accuracy', 0); old = rows.get('old64', {}).get('held_out_accuracy', 0)
print('true' if new >= old else 'false')
" 2>/dev/null || echo true)
echo "strong network board planes and context: $FLAGS; elapsed $(( $(date +%s) - T0 )) s"
sed -e 's/^eval_every:.*/eval_every: 100000000/' -e 's#^out_dir:.*#out_dir: /tmp/runs#' -e 's/^n_envs:.*/n_envs: 128/' -e 's/^eval_games:.*/eval_games: 20/' configs/strong.yaml > /tmp/strong_gpu.yaml
printf "board_planes: $FLAGS\ncontext: $FLAGS\n" >> /tmp/strong_gpu.yaml
[ -z "$IMIT" ] || sed -i "s/^imitation_samples:.*/imitation_samples: $IMIT/" /tmp/strong_gpu.yaml
cat /tmp/strong_gpu.yaml
python3 -m kbenv.cli train --config /tmp/strong_gpu.yaml --timesteps ${STEPS:-3000000} --max-minutes ${TRAIN_MIN:-3.5} --quiet 2>&1 | grep -v Warning | tee $OUT/train.log
R=/tmp/runs/strong
cp $R/model.zip $R/model_card.json $OUT/ 2>/dev/null
echo "elapsed before tournaments: $(( $(date +%s) - T0 )) s"
$TOUR --agents ppo:path=$R/model.zip greedy --players 2 --games ${G2:-200} --workers ${WORKERS:-15} --quiet --seed 5 --out /tmp/t2 2>&1 | tee $OUT/t2.txt
$TOUR --agents ppo:path=$R/model.zip greedy --field --players 4 --games ${G4:-100} --workers ${WORKERS:-15} --quiet --seed 6 --out /tmp/t4 2>&1 | tee $OUT/t4.txt
$TOUR --agents ppo:path=$R/model.zip random --players 2 --games ${GR:-100} --workers ${WORKERS:-15} --quiet --seed 7 --out /tmp/tr 2>&1 | tee $OUT/tr.txt
echo "total elapsed: $(( $(date +%s) - T0 )) s"
