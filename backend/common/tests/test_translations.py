"""The server's Kiswahili catalogue (locale/sw/LC_MESSAGES) covers exactly the strings the code can
show, every one translated, and the committed django.mo is compiled from the committed django.po.
`make i18n` brings both up to date."""

import os
import re
import shutil
import subprocess
from collections import Counter
from io import StringIO
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import override_settings

CATALOGUE = Path(settings.BASE_DIR) / "locale" / "sw" / "LC_MESSAGES" / "django.po"
# Not copied for makemessages, as the Makefile's i18n target skips them (tests show no one anything).
NOT_SCANNED = ["staticfiles", "media", "locale", "tests", "__pycache__", "*.sqlite3"]


def _keys(catalogue: polib.POFile) -> set[tuple[str | None, str]]:
    return {(entry.msgctxt, entry.msgid) for entry in catalogue if not entry.obsolete and entry.msgid}


def _placeholders(text: str) -> Counter[str]:
    return Counter(re.findall(r"%\(\w+\)[sd]|</?\w+>", text))


@pytest.fixture(scope="module")
def extracted(tmp_path_factory) -> set[tuple[str | None, str]]:
    """What makemessages finds in the code now, run on a copy so the committed files stay as they are."""
    if not shutil.which("xgettext"):
        pytest.fail("GNU gettext is needed to check the translations (apt-get install gettext).")
    source = tmp_path_factory.mktemp("i18n") / "backend"
    shutil.copytree(settings.BASE_DIR, source, ignore=shutil.ignore_patterns(*NOT_SCANNED))
    (source / "locale").mkdir()
    cwd = Path.cwd()
    os.chdir(source)  # makemessages scans the current directory
    try:
        with override_settings(LOCALE_PATHS=[source / "locale"]):
            call_command("makemessages", locale=["sw"], no_obsolete=True, verbosity=0, stdout=StringIO())
    finally:
        os.chdir(cwd)
    return _keys(polib.pofile(str(source / "locale" / "sw" / "LC_MESSAGES" / "django.po")))


def test_every_string_in_the_code_is_in_the_catalogue(extracted):
    missing = extracted - _keys(polib.pofile(str(CATALOGUE)))
    assert not missing, f"Not in {CATALOGUE.name}, run `make i18n` and translate: {sorted(missing, key=str)}"


def test_the_catalogue_has_no_string_the_code_no_longer_uses(extracted):
    unused = _keys(polib.pofile(str(CATALOGUE))) - extracted
    assert not unused, f"No longer in the code, run `make i18n`: {sorted(unused, key=str)}"


def test_every_string_is_translated_with_its_placeholders():
    catalogue = polib.pofile(str(CATALOGUE))
    untranslated = [entry.msgid for entry in catalogue.untranslated_entries()] + [
        entry.msgid for entry in catalogue.fuzzy_entries()
    ]
    assert not untranslated, f"Translate these in {CATALOGUE}: {untranslated}"
    for entry in catalogue.translated_entries():
        if entry.msgid_plural:
            assert _placeholders(entry.msgstr_plural[0]) == _placeholders(entry.msgid), entry.msgid
            assert _placeholders(entry.msgstr_plural[1]) == _placeholders(entry.msgid_plural), entry.msgid_plural
        else:
            assert _placeholders(entry.msgstr) == _placeholders(entry.msgid), entry.msgid


def test_the_compiled_catalogue_is_up_to_date(tmp_path):
    """django.mo is what compilemessages makes of django.po (Django reads only the .mo)."""
    compiled = tmp_path / "django.mo"
    subprocess.run(["msgfmt", "--check-format", "-o", str(compiled), str(CATALOGUE)], check=True)  # noqa: S603, S607
    assert compiled.read_bytes() == CATALOGUE.with_suffix(".mo").read_bytes(), "django.mo is stale: run `make i18n`"
