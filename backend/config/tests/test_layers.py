"""The layers of backend/pyproject.toml, as `make lint` checks them (import-linter), catch a wrong import.

The contract is run as written over stand-in apps (an empty package per root package) in a folder of the
test's own, so the check is seen to fail on an import that climbs a layer, and to pass on one that goes down.
"""

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

BACKEND = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def _lint_imports(tmp_path: Path, modules: dict[str, str]) -> subprocess.CompletedProcess[str]:
    config = tomllib.loads((BACKEND / "pyproject.toml").read_text())["tool"]["importlinter"]
    for package in config["root_packages"]:
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("")
    for name, source in modules.items():
        (tmp_path / f"{name.replace('.', '/')}.py").write_text(source)
    contracts = "\n".join(
        f'[[tool.importlinter.contracts]]\nid = "{contract["id"]}"\nname = "{contract["name"]}"\n'
        f'type = "{contract["type"]}"\n'
        # The stand-ins hold none of the named exceptions' imports.
        'unmatched_ignore_imports_alerting = "none"\n'
        + "".join(
            f"{key} = {_toml_list(contract[key])}\n"
            for key in ("layers", "source_modules", "forbidden_modules", "ignore_imports")
            if key in contract
        )
        for contract in config["contracts"]
    )
    (tmp_path / "contract.toml").write_text(
        f"[tool.importlinter]\nroot_packages = {_toml_list(config['root_packages'])}\n\n{contracts}"
    )
    return subprocess.run(  # noqa: S603 - the virtualenv's own lint-imports, on files this test wrote
        [str(LINT_IMPORTS), "--config", "contract.toml", "--no-cache", "--no-logo"],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
        capture_output=True,
        text=True,
        check=False,
    )


def _toml_list(values: list[str]) -> str:
    return "[" + ", ".join(f'"{value}"' for value in values) + "]"


@pytest.mark.parametrize(
    ("module", "wrong_import"),
    [
        pytest.param("payments.services", "pledges", id="a lower app importing a higher one"),
        pytest.param("desk.services", "giving", id="siblings that may not import each other"),
        pytest.param("payments.services", "simulators", id="an app importing a simulator"),
    ],
)
def test_the_layers_fail_on_a_wrong_import(tmp_path, module, wrong_import):
    answer = _lint_imports(tmp_path, {module: f"import {wrong_import}\n"})
    assert answer.returncode == 1
    assert f"{module} -> {wrong_import}" in answer.stdout


def test_the_layers_pass_an_app_importing_the_layers_below_it(tmp_path):
    answer = _lint_imports(tmp_path, {"pledges.services": "import payments\nimport common\n"})
    assert answer.returncode == 0, answer.stdout
