"""Serves the built React app: index.html for every client route.

The client router decides what to show; this knows the route table well enough to
answer 404 for paths no client route matches (e.g. /pledge/abc), so crawlers and
link previews see the truth. Keep CLIENT_ROUTES in step with frontend/src/routes.tsx;
the end-to-end tests visit every route.
"""

import re
from functools import cache
from pathlib import Path

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_safe

CLIENT_ROUTES = [
    r"",
    r"signin",
    r"signup",
    r"forgot-password",
    r"reset-password",
    r"explore",
    r"how-it-works",
    r"campaign/\d+",
    r"campaign/\d+/(?:donate|pledge|edit)",
    r"edit-campaign/\d+",
    r"pledge/\d+",
    r"pledge/create-campaign",
    r"fundraiser-success",
    r"icc-imara-donate",
    r"home",
    r"start-fundraiser",
    r"dashboard",
    r"grantfunding",
    r"profile",
]
CLIENT_ROUTE_PATTERN = re.compile(r"^/(?:" + "|".join(CLIENT_ROUTES) + r")/?$")


@cache
def _index_html(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def index_html() -> str:
    path = settings.FRONTEND_DIST / "index.html"
    if not path.exists():
        return (
            "<!doctype html><title>Harambee</title>"
            "<p>The frontend is not built yet: run <code>make run</code> (or <code>make build</code>).</p>"
        )
    return _index_html(path) if not settings.DEBUG else path.read_text(encoding="utf-8")


@require_safe
def spa(request: HttpRequest) -> HttpResponse:
    status = 200 if CLIENT_ROUTE_PATTERN.match(request.path) else 404
    response = HttpResponse(index_html(), status=status)
    # The HTML names the current hashed bundles, so it must never be served stale.
    response["Cache-Control"] = "no-cache"
    return response
