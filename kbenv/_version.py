"""The one version of kbenv: pyproject.toml reads it (`[tool.setuptools.dynamic]`), `kbenv.__version__` and
`kbenv --version` show it, and CHANGELOG.md's newest release names it (tests/test_version.py checks all three)."""

__version__ = "1.0.0"
