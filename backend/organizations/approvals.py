"""The kinds of change that the two-person rule guards, registered by the apps that own them.

Organizations sit low in the layers (ARCHITECTURE.md): they cannot import what a higher app's
change does (e.g. a collection account's). So each app registers its kinds once, in its
``AppConfig.ready()``::

    register_change_kind("team.role_change", apply=..., describe=...)

``apply`` makes the change from the request's ``payload``, inside the approval's transaction (it
may raise ``common.errors.ServiceError`` to refuse; nothing is applied then); ``describe`` says in
a sentence, in the active language, what the request changes (shown to those asked to approve it).

A change that an outside service must agree to (registering a paybill with Daraja, a bank account
with Paystack) also has ``call``: it asks the service, outside any transaction (common/network.py),
once the change is about to apply, and may raise ``ServiceError`` to refuse (the request then stays
as it was). What it answers reaches ``apply`` as ``request.payload["answer"]``, recorded in the short
transaction that applies the change.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from organizations.models import ChangeRequest


@dataclass(frozen=True)
class ChangeKind:
    apply: Callable[["ChangeRequest"], None]
    describe: Callable[["ChangeRequest"], str]
    call: Callable[["ChangeRequest"], dict[str, object]] | None = None


_KINDS: dict[str, ChangeKind] = {}


def register_change_kind(
    kind: str,
    *,
    apply: Callable[["ChangeRequest"], None],
    describe: Callable[["ChangeRequest"], str],
    call: Callable[["ChangeRequest"], dict[str, object]] | None = None,
) -> None:
    """Make ``kind`` known to the two-person rule; registering a kind twice is a programming error."""
    change = ChangeKind(apply=apply, describe=describe, call=call)
    if kind in _KINDS and _KINDS[kind] != change:
        raise ValueError(f"The change kind {kind!r} is already registered.")
    _KINDS[kind] = change


def change_kind(kind: str) -> ChangeKind:
    """The registered ``kind``; KeyError for one nobody registered."""
    return _KINDS[kind]
