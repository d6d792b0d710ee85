"""The headless browser of the `kbenv serve` browser tests (tests/test_serve_browser.py, test_island_browser.py,
test_analysis_browser.py): where Chromium and chromedriver are (KBENV_CHROMIUM / KBENV_CHROMEDRIVER name other
binaries), the skip reason when one is missing, a served app on a free local port, a headless Chromium, and waiting
for a condition in the page. Import selenium and uvicorn (pytest.importorskip) before calling served / chrome."""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest


def _binary(env: str, *names: str) -> str | None:
    for name in (os.environ.get(env), *names):
        if name and (shutil.which(name) or os.path.isfile(name)):
            return shutil.which(name) or name
    return None


CHROMIUM = _binary("KBENV_CHROMIUM", "/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome")
DRIVER = _binary("KBENV_CHROMEDRIVER", "/usr/bin/chromedriver", "chromedriver")
NO_BROWSER = CHROMIUM is None or DRIVER is None
WHY_NO_BROWSER = (f"no headless browser: chromium {'found' if CHROMIUM else 'not found'}, chromedriver "
                  f"{'found' if DRIVER else 'not found'} (apt-get install chromium chromium-driver)")


@contextmanager
def served(app) -> Iterator[str]:
    """The app under uvicorn in a thread on a free local port; its URL."""
    import uvicorn

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert srv.started, "uvicorn did not start"
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        srv.should_exit = True
        thread.join(timeout=10)


@contextmanager
def chrome(window: str = "1500,900"):
    """A headless Chromium driven by chromedriver, with a window of `window` pixels."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", f"--window-size={window}"):
        options.add_argument(arg)
    driver = webdriver.Chrome(options=options, service=Service(DRIVER))
    try:
        yield driver
    finally:
        driver.quit()


def wait(driver, condition: str, seconds: float = 30):
    """Wait until the page's JavaScript `condition` is true; its value."""
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, seconds, poll_frequency=0.05).until(lambda d: d.execute_script(condition))


def browser_fixture(window: str):
    """A module-scoped `browser` fixture: a headless Chromium with a window of `window` pixels."""

    @pytest.fixture(scope="module")
    def browser():
        with chrome(window) as driver:
            yield driver

    return browser
