"""No source file grows past 600 lines (backend and front end), so no module becomes a hub again.

Generated files, migrations, tests, translations and the OpenAPI schema do not count. A file past the
limit is split along its sections, as ``payments/services/``, ``pledges/services/``,
``payments/providers/daraja/`` and ``simulators/daraja/`` were: there are no exceptions.
"""

from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
LIMIT = 600
SOURCE_SUFFIXES = {".py", ".ts", ".tsx", ".mjs", ".js"}
NOT_SOURCE_PARTS = {"tests", "test", "migrations", "locales", "node_modules", "e2e", "staticfiles", "build", "dist"}


def _sources() -> list[Path]:
    found = []
    for top in (REPO / "backend", REPO / "frontend" / "src", REPO / "frontend" / "scripts"):
        for path in top.rglob("*"):
            relative = path.relative_to(REPO)
            if path.suffix not in SOURCE_SUFFIXES or NOT_SOURCE_PARTS & set(relative.parts):
                continue
            if ".venv" in relative.parts or path.name.endswith((".test.ts", ".test.tsx", ".d.ts")):
                continue
            if path.name in {"conftest.py", "schema.d.ts"} or path.name.startswith("test_"):
                continue
            found.append(path)
    return found


def _over_the_limit(paths: list[Path], root: Path = REPO) -> dict[str, int]:
    lengths = {str(path.relative_to(root)): len(path.read_text(encoding="utf-8").splitlines()) for path in paths}
    return {name: lines for name, lines in lengths.items() if lines > LIMIT}


def test_no_source_file_is_over_600_lines():
    assert _over_the_limit(_sources()) == {}


def test_the_money_hubs_largest_module_is_under_450_lines():
    for package in ("payments/services", "pledges/services"):
        modules = (REPO / "backend" / package).glob("*.py")
        assert max(len(path.read_text().splitlines()) for path in modules) < 450


def test_the_check_fails_on_a_file_one_line_too_long(tmp_path):
    (tmp_path / "hub.py").write_text("x = 1\n" * (LIMIT + 1))
    (tmp_path / "module.py").write_text("x = 1\n" * LIMIT)
    assert _over_the_limit(sorted(tmp_path.iterdir()), root=tmp_path) == {"hub.py": LIMIT + 1}
