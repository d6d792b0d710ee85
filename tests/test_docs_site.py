"""The documentation site (`make docs`): it builds with warnings as errors, every relative link of the built HTML
resolves to a file (and an anchor where it names one), and the generated tables hold what the code declares."""

from __future__ import annotations

import html
import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

pytest.importorskip("sphinx")
pytest.importorskip("furo")
pytest.importorskip("myst_parser")

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
HREF = re.compile(r"""(?:href|src)="([^"]*)\"""")
ID = re.compile(r"""\bid="([^"]+)\"""")


def extension():
    """docs/_ext/kbenv_docs.py, loaded by path (it is not a package module)."""
    spec = importlib.util.spec_from_file_location("kbenv_docs", DOCS / "_ext" / "kbenv_docs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The site built once, fresh, with -W (what `make docs` runs), into a temporary folder."""
    out = tmp_path_factory.mktemp("docs")
    run = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
                          "-d", str(out / "doctrees"), str(DOCS), str(out / "html")],
                         cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-6000:]
    assert "WARNING" not in run.stderr, run.stderr[-6000:]
    return out / "html"


def page_text(path: Path) -> str:
    """The text of a built page, tags removed."""
    return html.unescape(re.sub(r"<[^>]+>", " ", path.read_text(encoding="utf-8")))


def test_every_relative_link_resolves(site):
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 40
    ids: dict[Path, set[str]] = {}
    broken = []
    for page in pages:
        for link in HREF.findall(page.read_text(encoding="utf-8")):
            url = urlsplit(html.unescape(link))
            if url.scheme or url.netloc or link.startswith(("mailto:", "data:", "javascript:")):
                continue
            target = (page.parent / unquote(url.path)).resolve() if url.path else page
            if target.is_dir():
                target = target / "index.html"
            if not target.is_file():
                broken.append(f"{page.relative_to(site)}: {link}")
                continue
            if url.fragment and target.suffix == ".html":
                if target not in ids:
                    ids[target] = set(ID.findall(target.read_text(encoding="utf-8")))
                if url.fragment not in ids[target]:
                    broken.append(f"{page.relative_to(site)}: {link} (no such anchor)")
    assert not broken, "\n".join(broken[:40])


def test_the_environment_page_shows_every_channel_feature_and_action(site):
    from kbenv import catalogue as CAT
    from kbenv.engine import observe as O0
    from kbenv.engine import observe_layout as O1
    from kbenv.layout import LAYOUTS

    text = page_text(site / "environments" / "kingdom_builder.html")
    names = [name for name, _, _ in (*O0.V0_CHANNELS, *O1.V1_CHANNELS, *O0.V0_FEATURES, *O1.V1_FEATURES)]
    missing = [name for name in names if f" {name} " not in text]
    assert not missing, missing
    actions = CAT.ACTION_NAMES[400:CAT.ISLAND_ACTION_BASE]
    assert not [name for name in actions if f" {name} " not in text]
    for layout in LAYOUTS.values():
        assert f" {layout.action_size} " in text and str(layout.observation_shape) in text


def test_each_ruleset_page_shows_its_locations_cards_and_flags(site):
    from kbenv import catalogue as CAT

    for name in ("base", *(e.name for e in CAT.EXPANSIONS)):
        exp = None if name == "base" else name
        text = page_text(site / "rulesets" / f"{name}.html")
        rows = [loc.name for loc in CAT.LOCATION_TYPES if loc.expansion == exp]
        rows += [card.name for card in CAT.SCORING_CARDS if card.expansion == exp]
        rows += [flag.name for flag in CAT.RULE_FLAGS if flag.expansion == exp]
        assert not [row for row in rows if f" {row} " not in text], name
        assert "Rule readings" in text


def test_the_cli_page_shows_every_command_and_option(site):
    text = page_text(site / "cli.html")
    parsers = extension().cli_parsers()
    for name, parser in parsers.items():
        for action in parser._actions:
            for option in action.option_strings:
                assert option in text, f"kbenv {name} {option}"


def test_the_api_reference_documents_the_public_classes(site):
    ids = set()
    for page in ("engine", "vector", "envs", "agents", "serve"):
        ids |= set(ID.findall((site / "api" / f"{page}.html").read_text(encoding="utf-8")))
    for name in ("kbenv.game.Game", "kbenv.game.Game.step", "kbenv.game.view.PlayerView", "kbenv.vector.VectorGames",
                 "kbenv.ruleset.Ruleset", "kbenv.envs.kingdom_builder_v1.env", "kbenv.envs.wrappers.SelfPlayEnv",
                 "agents.registry.make_agent", "agents.evaluation.tournament.run_tournament",
                 "kbenv.serve.app.create_app"):
        assert name in ids, name


def test_generated_tables_need_no_build():
    ext = extension()
    for name, make in ext.TABLES.items():
        table = make()
        assert table.strip(), name
    with pytest.raises(ValueError, match="unknown ruleset"):
        ext._ruleset_rows("atlantis")
    with pytest.raises(ValueError, match="unknown command"):
        ext.cli_help("fly")


def test_generating_the_tables_compiles_no_kernel():
    """The extension reads tables only: no numba kernel is compiled (a fresh process, after every table)."""
    script = (
        "import importlib.util, sys\n"
        f"spec = importlib.util.spec_from_file_location('kbenv_docs', {str(DOCS / '_ext' / 'kbenv_docs.py')!r})\n"
        "m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)\n"
        "[make() for make in m.TABLES.values()]; [m.cli_help(c) for c in m.cli_parsers()]\n"
        "from kbenv import catalogue as CAT\n"
        "[m._ruleset_rows(e.name) for e in CAT.EXPANSIONS]\n"
        "from numba.core.registry import CPUDispatcher\n"
        "print(sorted({f'{mod.__name__}.{v.__name__}' for mod in list(sys.modules.values())\n"
        "              if getattr(mod, '__name__', '').startswith(('kbenv', 'agents'))\n"
        "              for v in vars(mod).values() if isinstance(v, CPUDispatcher) and v.overloads}))\n"
    )
    run = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.strip() == "[]", run.stdout
