"""The privacy notice names every cookie the server sets: a cookie added without telling people fails here."""

from pathlib import Path

from django.conf import settings

from accounts.sign_in_limits import DEVICE_COOKIES

PRIVACY_PAGE = Path(settings.BASE_DIR).parent / "frontend" / "src" / "features" / "privacy" / "PrivacyPage.tsx"


def test_the_privacy_page_names_every_cookie_the_server_sets():
    cookies = {
        settings.SESSION_COOKIE_NAME,
        settings.CSRF_COOKIE_NAME,
        settings.LANGUAGE_COOKIE_NAME,
        *DEVICE_COOKIES,
    }
    page = PRIVACY_PAGE.read_text()

    assert {cookie for cookie in cookies if f"<code>{cookie}</code>" not in page} == set()
