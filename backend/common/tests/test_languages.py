"""The language of the app's first paint: the server writes it on <html lang>, so the React app
loads the right catalogue before it renders anything."""

from datetime import date

import pytest
from django.conf import settings
from django.utils import translation
from django.utils.formats import date_format

# The public pages carry their data (config/spa.py), read from the database.
pytestmark = pytest.mark.django_db

INDEX_HTML = '<!doctype html><html lang="en"><title>Harambee</title><div id="root"></div></html>'


@pytest.fixture(autouse=True)
def built_frontend(settings, tmp_path):
    (tmp_path / "index.html").write_text(INDEX_HTML, encoding="utf-8")
    settings.FRONTEND_DIST = tmp_path


def lang_of(response) -> str:
    return response.content.decode().split('<html lang="', 1)[1].split('"', 1)[0]


@pytest.mark.parametrize(
    ("accept_language", "language"),
    [("", "en"), ("sw", "sw"), ("sw-KE,sw;q=0.9,en;q=0.8", "sw"), ("en-GB,en;q=0.9", "en"), ("fr-FR", "en")],
)
def test_the_browser_s_accept_language_chooses_the_first_language(client, accept_language, language):
    response = client.get("/explore", HTTP_ACCEPT_LANGUAGE=accept_language)

    assert lang_of(response) == language
    assert "Accept-Language" in response["Vary"]


def test_the_language_cookie_wins_over_accept_language(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"

    assert lang_of(client.get("/", HTTP_ACCEPT_LANGUAGE="sw")) == "en"

    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "sw"

    assert lang_of(client.get("/", HTTP_ACCEPT_LANGUAGE="en")) == "sw"


@pytest.mark.parametrize(("language", "written"), [("en", "Dec. 24, 2026"), ("sw", "24 Disemba 2026")])
def test_dates_are_written_in_the_active_language(language, written):
    with translation.override(language):
        assert date_format(date(2026, 12, 24)) == written
