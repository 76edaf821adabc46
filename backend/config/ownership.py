"""One writer per table: an app writes only the models it defines (``python -m config.ownership``).

The check reads the source (``ast``; nothing is imported or run). A model belongs to the app whose
``models.py`` defines it. A write is ``<Model>.objects.create/update/bulk_create/bulk_update/
get_or_create/update_or_create/delete`` (also at the end of a chain, ``Model.objects.filter(…).update(…)``),
``Model(…).save()``, and ``.save()``/``.delete()`` on a name spelled as the model is (``payment.save()``
for ``Payment``, ``link.payment.save()`` too). Another app that needs a column changed asks the owner's
service (``payments.services.payments_attribute``, …). Tests, migrations and the exceptions below are
not checked; each exception names what it writes and why.
"""

import ast
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

BACKEND = Path(__file__).resolve().parents[1]
WRITE_METHODS = frozenset(
    {"create", "update", "bulk_create", "bulk_update", "get_or_create", "update_or_create", "delete"}
)
INSTANCE_WRITES = frozenset({"save", "delete"})
NOT_APPS = frozenset({"simulators", "scale_tests", "bench"})

# (the writing module, the model): why it may. Keep it short; a new row needs a reason a reviewer accepts.
ALLOWED: dict[tuple[str, str], str] = {}  # none today
# Demo data (``manage.py demo_load``, development only) builds a whole world of every app's rows at once.
EXEMPT_MODULES = frozenset({"campaigns.demo", "collection_accounts.demo", "payments.demo", "pledges.demo"})


@dataclass(frozen=True)
class Write:
    module: str
    line: int
    model: str
    owner: str

    def __str__(self) -> str:
        return f"{self.module}:{self.line} writes {self.model} (owned by {self.owner})"


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def model_owners(backend: Path = BACKEND) -> dict[str, str]:
    """Model class name -> the app whose models.py defines it."""
    owners: dict[str, str] = {}
    for path in sorted([*backend.glob("*/models.py"), *backend.glob("*/models/*.py")]):
        app = path.relative_to(backend).parts[0]
        if app in NOT_APPS:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and node.bases:
                owners.setdefault(node.name, app)
    return owners


def _manager_model(node: ast.expr) -> str | None:
    """``Model`` for a receiver that is ``Model.objects`` (or ``Model._default_manager``), possibly
    followed by a chain of queryset calls (``Model.objects.filter(…).exclude(…)``)."""
    while True:
        if isinstance(node, ast.Call):
            node = node.func
        elif isinstance(node, ast.Attribute):
            if node.attr in ("objects", "_default_manager") and isinstance(node.value, ast.Name):
                return node.value.id
            node = node.value
        else:
            return None


def writes_in(source: str, *, module: str, owners: dict[str, str]) -> Iterator[Write]:
    """The writes in ``source`` (the module ``module``) to models another app owns."""
    app = module.split(".")[0]
    tree = ast.parse(source)
    by_snake = {_snake(name): name for name in owners}
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        method, receiver = node.func.attr, node.func.value
        model = None
        if method in WRITE_METHODS:
            model = _manager_model(receiver)
        if model is None and method in INSTANCE_WRITES:
            if isinstance(receiver, ast.Call) and isinstance(receiver.func, ast.Name):
                model = receiver.func.id  # Model(...).save()
            elif isinstance(receiver, ast.Name):
                model = by_snake.get(receiver.id)
            elif isinstance(receiver, ast.Attribute):
                model = by_snake.get(receiver.attr)
        if model is None or model not in owners:
            continue
        owner = owners[model]
        if owner != app and (module, model) not in ALLOWED:
            yield Write(module=module, line=node.lineno, model=model, owner=owner)


def _sources(backend: Path) -> Iterable[tuple[str, Path]]:
    for path in sorted(backend.rglob("*.py")):
        parts = path.relative_to(backend).parts
        if len(parts) < 2 or parts[0] in NOT_APPS or parts[0].startswith("."):
            continue
        if "tests" in parts or "migrations" in parts or path.name == "conftest.py":
            continue
        module = ".".join(parts)[: -len(".py")].removesuffix(".__init__")
        if module not in EXEMPT_MODULES:
            yield module, path


def violations(backend: Path = BACKEND) -> list[Write]:
    owners = model_owners(backend)
    found: list[Write] = []
    for module, path in _sources(backend):
        found.extend(writes_in(path.read_text(encoding="utf-8"), module=module, owners=owners))
    return found


def main() -> int:
    found = violations()
    for write in found:
        sys.stdout.write(f"{write}\n")
    sys.stdout.write(f"ownership: {len(found)} write(s) to another app's model\n" if found else "ownership: ok\n")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
