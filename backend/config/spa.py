"""Serves the built React app: index.html for every client route.

The client router decides what to show; this knows the route table well enough to
answer 404 for paths no client route matches (e.g. /pledge/abc), so crawlers and
link previews see the truth. The route table is common/client_routes.py.
"""

import re
from functools import cache
from pathlib import Path

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_safe

from accounts.models import User
from campaigns.sharing import campaign_page_parts
from common.cache_control import cache_for_visitors
from common.client_routes import CLIENT_ROUTE_PATTERN
from common.languages import current_language

# Campaign pages get link-preview tags (and 404 when the campaign is missing or hidden); the page
# itself (no sub-page) also a shell that paints before the JavaScript has run.
CAMPAIGN_PAGE_PATTERN = re.compile(r"^/campaign/(\d+)(/(?:donate|pledge|edit|poster|live|events))?/?$")
ROOT_PATTERN = re.compile(r"""<div id=(["'])root\1></div>""")
TITLE_PATTERN = re.compile(r"<title>.*?</title>", re.DOTALL)


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
    # The app shows this language from its first paint (LocaleMiddleware chose it).
    html = index_html().replace('<html lang="en">', f'<html lang="{current_language()}">', 1)
    status = 200 if CLIENT_ROUTE_PATTERN.match(request.path) else 404
    public_campaign_page = False
    if campaign_page := CAMPAIGN_PAGE_PATTERN.match(request.path):
        viewer = request.user if isinstance(request.user, User) and request.user.is_authenticated else None
        digits = campaign_page[1]
        campaign_id = int(digits) if len(digits) <= 20 else 0  # no id is longer; int() refuses huge text
        parts = campaign_page_parts(campaign_id=campaign_id, user=viewer)
        if parts is None:
            status = 404  # the app shows 'Campaign not found'
        elif parts.head:
            html = TITLE_PATTERN.sub("", html, count=1).replace("</head>", f"{parts.head}</head>", 1)
            if campaign_page[2] is None:
                html = ROOT_PATTERN.sub(lambda root: f'<div id="root">{parts.shell}</div>', html, count=1)
            public_campaign_page = True
    response = HttpResponse(html, status=status)
    # The HTML names the current hashed bundles, so it must never be served stale.
    response["Cache-Control"] = "no-cache"
    if public_campaign_page:
        # The same for every visitor: the micro-cache may keep it for a few seconds.
        cache_for_visitors(request, response, otherwise="no-cache")
    return response
