"""The documentation's lists that could drift from the code are checked against it.

Each test reads a list in ``ARCHITECTURE.md`` or ``docs/`` and the source it describes: the layers
(``backend/pyproject.toml``'s import-linter contract), the layout (the apps, features and folders that
exist), the configuration table (every variable ``config/settings.py`` reads), the rate limits, the
benchmarks, and the guide (each page in both languages, with the screenshots it shows). A change to
the code that leaves the docs behind fails here, with the name to add or remove.
"""

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

REPO = Path(__file__).resolve().parents[3]
BACKEND = REPO / "backend"
DOCS = REPO / "docs"

# How settings.py reads the environment: os.environ.get and its helpers, the name the first argument.
ENV_READ = re.compile(
    r"\b(?:os\.environ\.get|env_bool|env_list|env_rate|env_required_in_production)\(\s*\"([A-Z][A-Z0-9_]*)\""
)


def _table_first_column(markdown: str, header: str) -> list[str]:
    """The first cells of the table whose header row starts with ``| header |``."""
    lines = markdown.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"| {header} |"))
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append(line.split("|")[1].strip())
    return rows


def _code_names(cells: list[str]) -> set[str]:
    """The `NAME`s written in the given table cells."""
    return {name for cell in cells for name in re.findall(r"`([^`]+)`", cell)}


def _layers_block(markdown: str, heading: str) -> list[str]:
    """The layers drawn in the first code block after ``heading``: one expression per line, as in
    pyproject (``a | b``, ``a : b``), whatever label or comment stands beside it."""
    after = markdown[markdown.index(heading) :]
    block = after.split("```", 2)[1]
    packages = set(_importlinter()["root_packages"])
    layers = []
    for line in block.strip("\n").splitlines():
        cells = re.split(r"\s{2,}", line.strip())
        # A line is "label  layer  comment", or "layer  comment" below a label: the layer is the last of
        # the first two cells made only of app names (the label "desk" of the layer "desk" is both).
        candidates = [cell for cell in cells[:2] if all(name in packages for name in re.split(r" [|:] ", cell))]
        layers.append(candidates[-1])
    return layers


def _importlinter() -> dict:
    return tomllib.loads((BACKEND / "pyproject.toml").read_text())["tool"]["importlinter"]


def _pyproject_layers() -> list[str]:
    contract = next(c for c in _importlinter()["contracts"] if c["id"] == "layers")
    return contract["layers"]


@pytest.mark.parametrize(
    ("document", "heading"),
    [("ARCHITECTURE.md", "## The layers"), ("docs/architecture/layers.md", "# Layers")],
)
def test_the_layers_drawn_in_the_docs_are_the_import_linter_contract(document: str, heading: str) -> None:
    assert _layers_block((REPO / document).read_text(), heading) == _pyproject_layers()


def _layout_rows(section: str, header: str) -> set[str]:
    markdown = (DOCS / "architecture" / "layout.md").read_text()
    part = markdown[markdown.index(section) :]
    return _code_names(_table_first_column(part, header))


def test_every_backend_app_is_in_the_layout() -> None:
    apps = {path.parent.name + "/" for path in BACKEND.glob("*/__init__.py")}
    assert apps == _layout_rows("## The backend's apps", "App")


def test_every_front_end_feature_is_in_the_layout() -> None:
    features = {path.name + "/" for path in (REPO / "frontend" / "src" / "features").iterdir() if path.is_dir()}
    assert features == _layout_rows("## The front end", "Feature")


def test_every_top_level_folder_is_in_the_layout() -> None:
    ignored = {"build", "node_modules"}  # made by builds and installs, never committed
    folders = {
        path.name + "/"
        for path in REPO.iterdir()
        if path.is_dir() and not path.name.startswith(".") and path.name not in ignored
    }
    assert folders == _layout_rows("## The repository", "Folder")


def _settings_variables() -> set[str]:
    return set(ENV_READ.findall((BACKEND / "config" / "settings.py").read_text()))


def test_every_variable_settings_reads_is_in_the_configuration_table() -> None:
    table = _code_names(_table_first_column((DOCS / "operations" / "configuration.md").read_text(), "Variable"))
    wanted = {name for name in _settings_variables() if not name.startswith("RATE_LIMIT_")}
    assert wanted - table == set()


def test_every_variable_in_the_configuration_table_is_read_somewhere() -> None:
    table = _code_names(_table_first_column((DOCS / "operations" / "configuration.md").read_text(), "Variable"))
    readers = [BACKEND / "config" / "settings.py", *(REPO / "scripts").glob("*"), *(REPO / "deploy").rglob("*")]
    source = "\n".join(path.read_text(errors="replace") for path in readers if path.is_file())
    names = {name for name in table if re.fullmatch(r"[A-Z][A-Z0-9_]*", name)}
    assert {name for name in names if name not in source} == set()


def test_every_rate_limit_is_in_the_rate_limits_table() -> None:
    markdown = (DOCS / "operations" / "rate-limits.md").read_text()
    lines = [line for line in markdown.splitlines() if line.startswith("| ")]
    variables = {name for line in lines for name in re.findall(r"`(RATE_LIMIT_[A-Z_]+)`", line.split("|")[-2])}
    wanted = {name for name in _settings_variables() if name.startswith("RATE_LIMIT_")}
    assert variables == wanted


def test_every_benchmark_is_in_the_benchmarks_table() -> None:
    scripts = {path.name for path in (REPO / "bench").glob("*.py") if path.name != "support.py"}
    table = _code_names(_table_first_column((DOCS / "development" / "benchmarks.md").read_text(), "Script"))
    assert scripts == table


GUIDE = DOCS / "guide"


def test_every_guide_page_has_its_kiswahili_twin() -> None:
    english = {path.name.removesuffix(".md") for path in GUIDE.glob("*.md") if not path.name.endswith(".sw.md")}
    kiswahili = {path.name.removesuffix(".sw.md") for path in GUIDE.glob("*.sw.md")}
    assert english == kiswahili


def test_each_guide_page_shows_screenshots_in_its_own_language_only() -> None:
    for page in GUIDE.glob("*.md"):
        language = "sw" if page.name.endswith(".sw.md") else "en"
        images = re.findall(r"\]\((img/[^)]+)\)", page.read_text())
        assert all(image.startswith(f"img/{language}/") for image in images), page.name
        assert all((GUIDE / image).is_file() for image in images), page.name


def test_the_built_site_is_served_at_docs_with_a_folder_s_index(tmp_path: Path, client: Client, settings: Any) -> None:
    page = tmp_path / "docs" / "sw" / "guide" / "treasurer-week" / "index.html"
    page.parent.mkdir(parents=True)
    page.write_text("<h1>Wiki ya mweka hazina</h1>")
    # WhiteNoise reads its settings when the middleware is made, as a new client makes it.
    settings.WHITENOISE_ROOT = tmp_path
    response = client.__class__().get("/docs/sw/guide/treasurer-week/")
    assert response.status_code == 200
    assert response.getvalue() == b"<h1>Wiki ya mweka hazina</h1>"


@pytest.mark.parametrize(("document", "most_lines"), [("README.md", 100), ("ARCHITECTURE.md", 150)])
def test_the_front_pages_stay_maps(document: str, most_lines: int) -> None:
    # The detail belongs in docs/; these two are read first, whole.
    assert len((REPO / document).read_text().splitlines()) <= most_lines


def test_the_layout_apps_are_the_import_linter_root_packages() -> None:
    """Every app import-linter knows is in the layout, and the layout names no app it does not know."""
    packages = {name + "/" for name in _importlinter()["root_packages"]}
    assert packages == _layout_rows("## The backend's apps", "App")


def test_every_app_in_a_layer_is_a_root_package() -> None:
    packages = set(_importlinter()["root_packages"])
    layered = {name for layer in _pyproject_layers() for name in re.split(r" [|:] ", layer)}
    assert layered <= packages


def _biome_public_feature_files() -> list[str]:
    import json

    biome = json.loads((REPO / "frontend" / "biome.json").read_text())
    groups = [
        pattern["group"]
        for override in biome["overrides"]
        for rule in override["linter"]["rules"]["style"].values()
        for pattern in rule["options"]["patterns"]
    ]
    return [name[1:] for group in groups for name in group if name.startswith("!@/features/") and "*" not in name]


def test_every_public_feature_file_biome_names_exists() -> None:
    """The front end's import rules name files that are there: a moved file takes its rule along."""
    src = REPO / "frontend" / "src"
    missing = [
        name
        for name in _biome_public_feature_files()
        if not any((src / name.removeprefix("@/")).with_suffix(suffix).exists() for suffix in (".ts", ".tsx"))
    ]
    assert _biome_public_feature_files()
    assert missing == []


def test_the_front_end_page_names_the_feature_cycle_check_that_lint_runs() -> None:
    package = (REPO / "frontend" / "package.json").read_text()
    assert "scripts/check-feature-cycles.mjs" in package
    assert "scripts/check-feature-cycles.mjs" in (DOCS / "architecture" / "front-end.md").read_text()
