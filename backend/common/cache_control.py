"""Cache-Control of public reads, so a shared cache in front of gunicorn can absorb bursts.

A campaign link shared in a WhatsApp group is opened by hundreds of phones within seconds. The
nginx micro-cache (deploy/nginx) may keep such an answer for ``SHARED_CACHE_SECONDS`` when the
request carries no cookie at all: then nothing in it can depend on who asks. Browsers always
revalidate. Any request with a cookie (a session, or the CSRF cookie of a visitor who is pledging or
donating) gets ``otherwise``, so what they see after paying comes from the server, not a cache;
``Vary: Cookie`` keeps a shared cache from answering them with a visitor's copy.
"""

from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_vary_headers

SHARED_CACHE_SECONDS = 5


def public_for(shared_seconds: int) -> str:
    return f"public, max-age=0, must-revalidate, s-maxage={shared_seconds}"


PUBLIC = public_for(SHARED_CACHE_SECONDS)
# For answers that depend on the viewer.
PRIVATE = "private, no-store"


def cache_for_visitors(
    request: HttpRequest,
    response: HttpResponse,
    *,
    otherwise: str = PRIVATE,
    shared_seconds: int = SHARED_CACHE_SECONDS,
) -> None:
    """``shared_seconds``: how long the micro-cache may keep it (a big screen's live figures ask for less)."""
    response["Cache-Control"] = otherwise if request.COOKIES else public_for(shared_seconds)
    patch_vary_headers(response, ["Cookie"])
