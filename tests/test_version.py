"""One version source: kbenv/_version.py, read by pyproject.toml, shown by `kbenv --version`, named by CHANGELOG.md."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import kbenv

ROOT = Path(__file__).resolve().parents[1]
RELEASE = re.compile(r"^## \[(?P<version>[^\]]+)\](?: - (?P<date>\d{4}-\d{2}-\d{2}))?\s*$", re.M)


def changelog_releases() -> list[tuple[str, str | None]]:
    """(version, date) of every `## [x] - date` heading of CHANGELOG.md, newest first ("Unreleased" included)."""
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    return [(m.group("version"), m.group("date")) for m in RELEASE.finditer(text)]


def test_version_is_semver():
    assert re.fullmatch(r"\d+\.\d+\.\d+", kbenv.__version__)


def test_kbenv_version_prints_the_package_version():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-m", "kbenv.cli", "--version"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == f"kbenv {kbenv.__version__}"


def test_pyproject_reads_the_version_from_the_one_source():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    attr = project["tool"]["setuptools"]["dynamic"]["version"]["attr"]
    from setuptools.config.expand import read_attr

    assert read_attr(attr, root_dir=ROOT) == kbenv.__version__  # what a build would write into the metadata


def test_changelog_top_release_is_the_version():
    releases = changelog_releases()
    assert releases[0] == ("Unreleased", None)
    version, date = releases[1]
    assert version == kbenv.__version__ and date is not None
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert "keepachangelog.com" in text and "semver.org" in text
