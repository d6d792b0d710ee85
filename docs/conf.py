"""Sphinx configuration of kbenv's documentation site (`make docs`: sphinx-build -W --keep-going -b html docs
docs/_build/html). Offline: no intersphinx, no link checking; the tables of the environment, ruleset, CLI and
benchmark pages are generated at build time from the code by the extension in docs/_ext/kbenv_docs.py."""

from __future__ import annotations

import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path[:0] = [str(ROOT), str(DOCS / "_ext")]  # this tree's kbenv and agents first, then the extension

from kbenv._version import __version__  # noqa: E402  (after the path set-up)

project = "kbenv"
author = "kbenv contributors"
copyright = "kbenv contributors, MIT licence"  # noqa: A001  (Sphinx's name)
version = release = __version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "kbenv_docs",
]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = [
    "_build",
    "_ext",
    "self-play",  # CSV and PNG data of docs/self-play.md, not pages
    "tutorials/*.py",
    "**/.ipynb_checkpoints",
]
myst_enable_extensions = ["colon_fence", "deflist", "substitution"]
myst_heading_anchors = 3  # `[text](page.md#a-heading)` links to headings down to ###

html_theme = "furo"
html_title = f"kbenv {release}"
html_static_path: list[str] = []
html_show_sourcelink = False

autodoc_member_order = "bysource"
autodoc_default_options = {"members": True, "undoc-members": False, "show-inheritance": False}
autodoc_typehints = "description"
autodoc_inherit_docstrings = False  # upstream docstrings (gymnasium.Env.step, ...) are not this API's
autodoc_mock_imports: list[str] = []
default_role = "code"  # docstrings write `name` for code, as Markdown does
napoleon_google_docstring = True
napoleon_numpy_docstring = False
nitpicky = False
