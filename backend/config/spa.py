"""Serves the built React app: index.html for every client route.

The client router decides what to show; this knows the route table well enough to
answer 404 for paths no client route matches (e.g. /pledge/abc), so crawlers and
link previews see the truth. The route table is common/client_routes.py.

A public campaign's pages also carry its link-preview tags and, in ``<script type="application/json"
id="page-queries">``, the answers the page's hooks would fetch first (under their query keys,
src/lib/queryClient.ts), so the app starts without waiting for the API. The campaign page itself
comes rendered: the app's own HTML for it from the renderer (common/page_rendering.py), which the
browser hydrates (src/main.tsx), with the messages it shows in ``<script type="application/json"
id="page-messages">`` (not in English), so hydrating it does not wait for the language's whole
catalogue. The render is the same for every viewer, so it is cached in the shared cache per campaign,
language, day, campaign version and build (index.html); without a renderer the page goes out with an
empty root, for the browser to render.
"""

import hashlib
import json
import re
from functools import cache
from pathlib import Path

from django.conf import settings
from django.core.cache import cache as shared_cache
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.views.decorators.http import require_safe

from accounts.models import User
from campaigns.caching import VERSION_SECONDS
from campaigns.sharing import CampaignPageParts, campaign_page_parts
from common.cache_control import cache_for_visitors
from common.client_routes import CLIENT_ROUTE_PATTERN
from common.languages import current_language
from common.page_rendering import page_render
from ussd.api import ussd_info

# Campaign pages get link-preview tags and the campaign's data (and 404 when the campaign is missing
# or hidden); the page itself (no sub-page) also the app's HTML, rendered on the server.
CAMPAIGN_PAGE_PATTERN = re.compile(r"^/campaign/(\d+)(/(?:donate|pledge|edit|poster|live|events))?/?$")
ROOT_PATTERN = re.compile(r"""<div id=(["'])root\1></div>""")
TITLE_PATTERN = re.compile(r"<title>.*?</title>", re.DOTALL)
# Inside JSON, these occur only in strings, where the escapes mean the same: no "</script>" can end
# the script early, nor "<!--" change how it is parsed.
SCRIPT_SAFE_JSON = str.maketrans({"<": "\\u003C", ">": "\\u003E", "&": "\\u0026"})


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


@cache
def _build_id(html: str) -> str:
    """Names the build: index.html lists its hashed bundles, so a new build renders pages anew."""
    return hashlib.sha256(html.encode()).hexdigest()[:16]


def _script_json(script_id: str, text: str) -> str:
    return f'<script type="application/json" id="{script_id}">{text.translate(SCRIPT_SAFE_JSON)}</script>'


def _campaign_page_root(request: HttpRequest, campaign_id: int, parts: CampaignPageParts, *, rendered: bool) -> str:
    """<div id="root"> for a campaign's page: the campaign and the USSD code under the query keys of
    features/campaigns/api.ts (campaignKeys.detail) and features/ussd/api.ts (ussdKeys.info); when
    ``rendered`` and the renderer gave it, the app's HTML of the page and the messages it shows."""
    ussd = json.dumps(ussd_info(request).model_dump())
    queries = (
        f'[{{"queryKey":["campaigns","detail",{campaign_id}],"data":{parts.campaign_json.decode()}}},'
        f'{{"queryKey":["ussd"],"data":{ussd}}}]'
    )
    page: tuple[str, str] | None = None  # its HTML, and the JSON of its messages
    if rendered and settings.RENDERER_URL:
        language = current_language()
        key = (
            f"spa:campaign-page:{campaign_id}:{language}:{timezone.localdate()}:{parts.version}:"
            f"{_build_id(index_html())}"
        )
        page = shared_cache.get(key)
        if page is None and (fresh := page_render(path=request.path, language=language, queries_json=queries)):
            page = (fresh.html, json.dumps(fresh.messages, ensure_ascii=False) if fresh.messages else "")
            shared_cache.set(key, page, timeout=VERSION_SECONDS)
    html, messages = page or ("", "")
    scripts = _script_json("page-queries", queries) + (_script_json("page-messages", messages) if messages else "")
    return f'<div id="root">{html}</div>{scripts}'


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
            root = _campaign_page_root(request, campaign_id, parts, rendered=campaign_page[2] is None)
            html = ROOT_PATTERN.sub(lambda _: root, html, count=1)
            public_campaign_page = True
    response = HttpResponse(html, status=status)
    # The HTML names the current hashed bundles, so it must never be served stale.
    response["Cache-Control"] = "no-cache"
    if public_campaign_page:
        # The same for every visitor: the micro-cache may keep it for a few seconds.
        cache_for_visitors(request, response, otherwise="no-cache")
    return response
