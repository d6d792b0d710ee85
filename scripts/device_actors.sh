#!/usr/bin/env bash
# Parallel self-play on a lent GPU machine (16 cores, no network there): install the carried wheels (.whl,
# docs/training.md), compile the numba kernels once (the actors load them from the cache), measure the
# self-play throughput of one process on the GPU against 15 Ray actors (network in each actor, then one
# inference server on the GPU: benchmarks/actors_speed.py) for the quick network and the warm run's, then
# (TRAIN=1) train configs/selfplay_2p_warm_gpu.yaml until $DEADLINE seconds after the start and pack the
# run into $OUT/run.tar.gz. Every stage writes to $OUT as it ends, so a run stopped at its limit still returns
# what it finished. Set-up and warm-up: scripts/device_setup.sh.
#
#   DEADLINE=520 bash scripts/device_actors.sh
# (a smoke test without a GPU: PY=.venv/bin/python DEVICE=cpu ACTORS=1 GAMES=8 TRAIN_CONFIG=tiny.yaml bash ...)
set -u
DEADLINE=${DEADLINE:-520}
DEVICE=${DEVICE:-cuda}
ACTORS=${ACTORS:-15}
GAMES=${GAMES:-960}
TRAIN_CONFIG=${TRAIN_CONFIG:-configs/selfplay_2p_warm_gpu.yaml}
OUT=${OUT:-/tmp/device_out}
START=$(date +%s)
mkdir -p "$OUT" /tmp/runs
elapsed() { echo $(( $(date +%s) - START )); }
log() { echo "[$(elapsed) s] $*" | tee -a "$OUT/stages.log"; }
source scripts/device_setup.sh
versions | tee -a "$OUT/stages.log" || exit 1
log "wheels installed"
warm_up $(( DEADLINE - 200 )) > "$OUT/warm.log" 2>&1 \
    || log "warm-up failed: rc $? (the benchmarks compile what they need)"
log "numba kernels compiled"
# (config, inference, steps): the quick network (16 channels, 1 block, 8 simulations), then the warm run's
# (48 channels, 3 blocks, 16 simulations), where the network's cost is larger
for bench in quick:local:8 quick:server:8 selfplay_2p_warm_gpu:server:4 selfplay_2p_warm_gpu:local:4; do
    IFS=: read -r config inference steps <<< "$bench"
    limit=$(( DEADLINE - $(elapsed) - 15 ))
    if [ "$limit" -lt 40 ]; then log "no time left for $bench"; break; fi
    [ "$limit" -gt 180 ] && limit=180
    name="actors_${config}_$inference"
    timeout "$limit" $PY -m benchmarks.actors_speed --config "configs/$config.yaml" --device "$DEVICE" \
        --actors "$ACTORS" --inference "$inference" --games "$GAMES" --steps "$steps" --rounds 2 \
        --out "$OUT/$name.json" > "$OUT/$name.log" 2>&1
    log "$bench: rc $? $(grep -h 'positions/s' "$OUT/$name.log" | tr '\n' '|')"
done
[ "${TRAIN:-0}" = 1 ] || { log "done"; exit 0; }
left=$(( DEADLINE - $(elapsed) - 45 ))
if [ "$left" -gt 60 ]; then
    minutes=$($PY -c "print(round($left / 60, 2))")
    log "training for $minutes minutes"
    timeout $(( left + 30 )) $PY -m kbenv.cli train --config "$TRAIN_CONFIG" \
        --max-minutes "$minutes" --out /tmp/runs > "$OUT/train.log" 2>&1
    log "training ended: rc $?"
    dir=/tmp/runs/$($PY -c "import yaml, sys; print(yaml.safe_load(open(sys.argv[1]))['name'])" "$TRAIN_CONFIG")
    ls -l "$dir" | tee -a "$OUT/stages.log"
    tar -czf "$OUT/run.tar.gz" -C "$dir" $(cd "$dir" && ls | grep -v '^checkpoint')
    tar -czf "$OUT/checkpoint.tar.gz" -C "$dir" checkpoint.pt 2> /dev/null
    ls -l "$OUT" | tee -a "$OUT/stages.log"
fi
log "done"
