"""Static files as production serves them (issue #10): the built app collected with the settings'
storage, then served by whitenoise. Hashed assets are cached for a year and precompressed with
brotli and gzip; anything without a hash in its name is revalidated soon."""

import pytest
from django.core.management import call_command
from django.test import RequestFactory
from whitenoise.middleware import WhiteNoiseMiddleware  # type: ignore[import-untyped]

from config import settings as production_settings

# Big and repetitive enough to be worth compressing, like a real bundle.
BUNDLE = "export function campaignCard(){return 'Harambee';}\n" * 200


@pytest.fixture
def serve_static(settings, tmp_path):
    """Collect a fake Vite build with the production storage; a whitenoise in front of nothing."""
    dist = tmp_path / "dist"
    (dist / "assets").mkdir(parents=True)
    (dist / "assets" / "index-B3kq9ZxA.js").write_text(BUNDLE)
    (dist / "favicon.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'>" + " " * 2000 + "</svg>")
    settings.STATICFILES_DIRS = [dist]
    settings.STATICFILES_FINDERS = ["django.contrib.staticfiles.finders.FileSystemFinder"]
    settings.STATIC_ROOT = tmp_path / "static"
    settings.STORAGES = {**settings.STORAGES, "staticfiles": production_settings.STORAGES["staticfiles"]}
    call_command("collectstatic", "--noinput", verbosity=0)
    whitenoise = WhiteNoiseMiddleware(get_response=lambda request: pytest.fail(f"not a static file: {request.path}"))

    def get(path, accept_encoding=""):
        return whitenoise(RequestFactory().get(path, HTTP_ACCEPT_ENCODING=accept_encoding))

    return get


def test_hashed_assets_are_cached_for_a_year(serve_static):
    response = serve_static("/static/assets/index-B3kq9ZxA.js")

    assert response.status_code == 200
    assert response["Cache-Control"] == "max-age=315360000, public, immutable"


@pytest.mark.parametrize(("accept_encoding", "encoding"), [("gzip, deflate, br", "br"), ("gzip, deflate", "gzip")])
def test_hashed_assets_come_precompressed(serve_static, accept_encoding, encoding):
    response = serve_static("/static/assets/index-B3kq9ZxA.js", accept_encoding)

    assert response["Content-Encoding"] == encoding
    assert "Accept-Encoding" in response["Vary"]
    assert int(response["Content-Length"]) < len(BUNDLE) / 10


def test_files_without_a_hash_are_revalidated_soon(serve_static):
    response = serve_static("/static/favicon.svg", "br")

    assert response["Cache-Control"] == "max-age=60, public"  # whitenoise's default without DEBUG
    assert response["Content-Encoding"] == "br"
