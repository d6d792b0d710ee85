# Sourced by the device scripts (scripts/device_actors.sh, scripts/device_selfplay.sh), from the repository's root:
# $PY (python3 unless set), the carried wheels of .whl installed into /tmp/site when kbenv's requirements are
# missing (scripts/make_device_wheels.sh makes them), PYTHONPATH with this checkout (Ray actors import kbenv from
# here), `versions` (what the machine runs) and `warm_up SECONDS` (a tiny compiled-search run that compiles the
# numba kernels once, so that later processes and actors load them from the cache).
PY=${PY:-python3}
if ! $PY -c "import pydantic, gymnasium, pettingzoo, sb3_contrib, openskill" 2> /dev/null; then
    $PY -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
        || exit 1
    export PYTHONPATH=/tmp/site
fi
export PYTHONPATH=${PYTHONPATH:+$PYTHONPATH:}$PWD PYTHONUNBUFFERED=1

versions() {
    $PY -c "import numba, numpy, torch; print('numba', numba.__version__, 'numpy', numpy.__version__, 'torch',
torch.__version__, 'cuda', torch.cuda.is_available(), 'cpus', __import__('os').cpu_count())"
}

warm_up() {
    cat > /tmp/warm.yaml <<'YAML'
method: alphazero
name: warm
games: 4
simulations: 2
considered: 2
search: compiled
iterations: 1
steps_per_iteration: 50
train_batches: 1
batch_size: 8
min_buffer: 1
eval_opponents: []
out_dir: /tmp/warm
YAML
    timeout "$1" $PY -m kbenv.cli train --config /tmp/warm.yaml --quiet
}
