"""`kbenv serve`: play, watch and replay games in the browser (Starlette + uvicorn, the `serve` extra).

`create_app(records_dirs=...)` is the ASGI app (kbenv.serve.app: the JSON API and the static page);
`serve(host, port, records_dirs)` runs it with uvicorn. What a page sees of a game is built from a seat's
PlayerView only (kbenv.serve.views): an opponent's hidden hand never leaves the server.
"""

from __future__ import annotations


def create_app(records_dirs=(), max_games: int = 64):
    """The ASGI app (see kbenv.serve.app)."""
    from .app import create_app as _create

    return _create(records_dirs, max_games)


def serve(host: str = "127.0.0.1", port: int = 8000, records_dirs=(), log_level: str = "warning") -> None:
    """Run the app with uvicorn until interrupted, after printing its address; OSError if it cannot listen
    at host:port (a port in use, an address not of this machine)."""
    import socket

    import uvicorn

    app = create_app(records_dirs)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:  # a clear error before uvicorn starts
        try:
            probe.bind((host, port))
        except OSError as err:
            raise OSError(f"--host {host} --port {port}: cannot listen there ({err.strerror or err})") from None
    shown = f"[{host}]" if ":" in host else host
    print(f"kbenv serve: open http://{shown}:{port}/ in a browser (Ctrl-C stops the server)", flush=True)
    uvicorn.run(app, host=host, port=port, log_level=log_level)
