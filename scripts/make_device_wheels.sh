#!/usr/bin/env bash
# The wheels that the lent GPU machine lacks (Python 3.12 there, no network), into .whl/ (ignored by git),
# for scripts/device_actors.sh and scripts/device_selfplay.sh: kbenv's own requirements, stable-baselines3
# and sb3-contrib (agents.training imports them), and Ray with its Java jars, dashboard client, RLlib, Serve
# and LLM packages removed (79 MB -> 42 MB: a device call carries at most 64 MiB). Numba, numpy and torch
# are the machine's own.
#
#   bash scripts/make_device_wheels.sh     # then: carry [".whl"] in the device call
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .whl
fetch() {
    python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
        --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 \
        -d "$1" "${@:2}"
}
fetch .whl gymnasium==1.2.2 pettingzoo==1.27.0 openskill==6.2.0 pydantic==2.14.4 pydantic-core==2.50.5 \
    annotated-types typing-inspection farama-notifications jsonschema jsonschema-specifications referencing \
    rpds-py stable-baselines3==2.9.2 sb3-contrib==2.9.2
work=$(mktemp -d)
fetch "$work" ray==2.60.0
mkdir "$work/tree"
(cd "$work/tree" && unzip -q "$work"/ray-*.whl \
    && rm -rf ray/jars ray/dashboard/client ray/rllib ray/llm ray/serve)
python3 -m pip install -q wheel
python3 -m wheel pack "$work/tree" -d .whl
rm -rf "$work"
du -sh .whl
