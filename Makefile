# Two entry points that do all the set-up on a fresh machine:
#   make demo   -- the main job
#   make test   -- the test suite (what CI runs)
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test browser lint bench docs clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q torch==2.13.0  # CPU build; a plain torch requirement would pull CUDA
	$(BIN)/pip install -q -e ".[dev,train,openspiel,rllib,interop,serve,docs]"
	$(BIN)/kbenv warmup --workers 2  # compile the kernels once, with a progress bar; every later run loads them
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/kbenv train --config configs/quick.yaml
	rm -rf results/demo  # a new model: a new tournament (kbenv refuses to mix results of different runs)
	$(BIN)/kbenv tournament --agents aznet:path=runs/quick/model.pt \
		az:path=runs/quick/model.pt,sims=64,considered=8,search=compiled \
		random greedy lookahead --players 2 --games 60 --workers 2 --seed 1 --out results/demo
	$(BIN)/kbenv play --players 2 --seed 1 \
		--agents az:path=runs/quick/model.pt,sims=64,considered=8,search=compiled greedy \
		--png results/demo/game.png --record results/demo/game.json

# The browser tests (tests/test_serve_browser.py) need Chromium and chromedriver: Debian's are installed when
# they are missing and this runs as root with apt-get; otherwise those tests skip and say why.
browser:
	@if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    (apt-get update -q && apt-get install -y -q chromium chromium-driver) \
	      || echo "make: could not install chromium; the browser tests will skip" >&2; \
	  else \
	    echo "make: no chromium/chromedriver and no root to install them; the browser tests will skip" >&2; \
	  fi; \
	fi

test: $(STAMP) browser
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -n 2 tests

bench: $(STAMP)
	$(BIN)/pip install -q -e ".[bench]"
	$(BIN)/python -m benchmarks.engine_speed
	$(BIN)/python -m benchmarks.aec_speed

# The documentation site (docs/conf.py; warnings are errors) into docs/_build/html.
docs: $(STAMP)
	$(BIN)/sphinx-build -W --keep-going -b html docs docs/_build/html

clean:
	rm -rf $(VENV) .pytest_cache docs/_build
