"""Response times of the `kbenv serve` API, measured in process with Starlette's TestClient:
`python -m kbenv.serve.timings [CALLS]` prints the median and 90th percentile of each kind of call (ms).

new game (human vs greedy, base game), view (a seat's view), legal, apply (one legal build) and agent move
(one greedy decision in an agents-only game, `step`)."""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import warnings


def measure(calls: int = 50) -> dict[str, tuple[float, float]]:
    """{call: (median ms, 90th percentile ms)} over `calls` calls each (after one warm-up call)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    from . import create_app

    client = TestClient(create_app())
    times: dict[str, list[float]] = {k: [] for k in ("new game", "view", "legal", "apply", "agent move")}

    def timed(key, fn):
        start = time.perf_counter()
        r = fn()
        times[key].append((time.perf_counter() - start) * 1000)
        assert r.status_code == 200, r.text
        return r.json()

    body = {"players": 2, "seats": ["human", "greedy"]}
    client.post("/api/games", json={**body, "seed": 0})  # warm-up: compiles or loads the numba kernels
    for k in range(calls):
        d = timed("new game", lambda k=k: client.post("/api/games", json={**body, "seed": k + 1}))
        gid = d["id"]
        client.post(f"/api/games/{gid}/advance", json={"seat": 0})
        timed("view", lambda gid=gid: client.get(f"/api/games/{gid}?seat=0"))
        legal = timed("legal", lambda gid=gid: client.get(f"/api/games/{gid}/legal?seat=0"))["legal"]
        hexes = [x["hex"] for x in legal if x["kind"] == "hex"]
        timed("apply", lambda gid=gid, h=hexes[0]: client.post(f"/api/games/{gid}/apply", json={"seat": 0, "hex": h}))
    gid = client.post("/api/games", json={"players": 2, "seats": ["greedy"]}).json()["id"]
    for _ in range(calls):
        timed("agent move", lambda: client.post(f"/api/games/{gid}/step", json={}))
    return {k: (statistics.median(v), statistics.quantiles(v, n=10)[-1]) for k, v in times.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m kbenv.serve.timings", description=__doc__.splitlines()[0])
    parser.add_argument("calls", nargs="?", type=int, default=50, help="calls of each kind (default 50)")
    calls = parser.parse_args(argv).calls
    if calls < 2:
        parser.error("calls: expected at least 2")
    for key, (median, p90) in measure(calls).items():
        print(f"{key:<12} median {median:7.2f} ms   p90 {p90:7.2f} ms   ({calls} calls)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
