#!/usr/bin/env bash
# Search-based self-play on a lent GPU machine (no network there): install the carried wheels
# (.whl, see docs/training.md), compile the numba kernels once, train every config given side by
# side for $MINUTES minutes (each run in its own process), then pack each run's model, card, losses
# and (when it fits in 16 MB) its checkpoint into $OUT/<run>.tar.gz.
#
#   MINUTES=6 bash scripts/device_selfplay.sh configs/selfplay_2p.yaml configs/selfplay_4p.yaml
set -u
MINUTES=${MINUTES:-6}
OUT=${OUT:-/tmp/device_out}
mkdir -p "$OUT" /tmp/runs
source scripts/device_setup.sh
versions || exit 1
start=$(date +%s)
warm_up 1200 || exit 1
echo "numba kernels compiled in $(( $(date +%s) - start )) s"
for cfg in "$@"; do
    name=$(basename "$cfg" .yaml)
    $PY -m kbenv.cli train --config "$cfg" --max-minutes "$MINUTES" --out /tmp/runs --quiet > "/tmp/runs/$name.log" 2>&1 &
done
wait
for dir in /tmp/runs/*/; do
    name=$(basename "$dir")
    tail -n 3 "/tmp/runs/$name.log"
    files="model.pt model_card.json losses.csv"
    tar -czf "$OUT/$name.tar.gz" -C "$dir" $files checkpoint.pt
    if [ "$(stat -c %s "$OUT/$name.tar.gz")" -gt 16000000 ]; then
        tar -czf "$OUT/$name.tar.gz" -C "$dir" $files
    fi
    ls -l "$OUT/$name.tar.gz"
done
