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

The pledge page (/campaign/{id}/pledge) is rendered the same way, with a plain HTML form that posts
without JavaScript (config/pledge_form.py): its data carries the visitor's CSRF token (put into the
cached render per request) and, after a refused post, what they typed and why it was refused; it is
never kept by a shared cache. A pledge's own page (/pledges/{code}) is rendered for each request.
"""

import hashlib
import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from django.conf import settings
from django.core.cache import cache as shared_cache
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.utils import timezone
from django.views.decorators.http import require_safe
from ninja.renderers import JSONRenderer

from accounts.models import User
from campaigns.caching import VERSION_SECONDS
from campaigns.sharing import CampaignPageParts, campaign_page_parts
from common.cache_control import PRIVATE, cache_for_visitors
from common.client_routes import CLIENT_ROUTE_PATTERN
from common.errors import NotFoundError, RateLimitedError
from common.languages import current_language
from common.page_rendering import page_render
from common.ratelimit import client_ip
from pledges.schemas import PledgeReceiptOut
from pledges.services import pledge_get_by_code
from ussd.api import ussd_info

# Campaign pages get link-preview tags and the campaign's data (and 404 when the campaign is missing
# or hidden); the page itself (no sub-page) also the app's HTML, rendered on the server.
CAMPAIGN_PAGE_PATTERN = re.compile(r"^/campaign/(\d+)(/(?:donate|pledge|edit|poster|live|events))?/?$")
# The campaign's sub-pages rendered on the server, beside the page itself ("").
RENDERED_CAMPAIGN_SUB_PAGES = ("", "pledge")
# A pledge's own page (common/client_routes.py).
PLEDGE_PAGE_PATTERN = re.compile(r"^/pledges/([2-9a-hjkmnp-zA-HJKMNP-Z]{7})/?$")
# Where a cached render of the pledge form has its visitor's CSRF token (letters: HTML leaves it as it is).
CSRF_TOKEN_PLACEHOLDER = "csrfTokenOfThisVisitor"  # noqa: S105 (not a secret: where one goes)
ROOT_PATTERN = re.compile(r"""<div id=(["'])root\1></div>""")
TITLE_PATTERN = re.compile(r"<title>.*?</title>", re.DOTALL)
MODULE_PRELOAD_PATTERN = re.compile(r"""\s*<link rel="modulepreload" crossorigin href="([^"]+)">""")
MODULE_SCRIPT_PATTERN = re.compile(r"""<script type="module" crossorigin src="([^"]+)"></script>""")

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


@dataclass(frozen=True)
class PledgeFormState:
    """A pledge form sent without JavaScript that was refused (config/pledge_form.py): what was typed,
    by the form's field names, and the refusal in the API's error shape."""

    values: dict[str, str | bool]
    error: dict[str, object]


def _pledge_form_json(token: str, state: PledgeFormState | None) -> str:
    """The data of the pledge form's hidden CSRF field and of a refused form (features/pledges/api.ts
    pledgeKeys.form), so it renders as a plain HTML form that posts without JavaScript."""
    return json.dumps(
        {"csrf_token": token, "values": state.values if state else None, "error": state.error if state else None},
        ensure_ascii=False,
    )


def _campaign_page_root(
    request: HttpRequest,
    campaign_id: int,
    parts: CampaignPageParts,
    *,
    sub_page: str,
    pledge_form: PledgeFormState | None,
) -> str:
    """<div id="root"> for a campaign's page: the campaign and the USSD code under the query keys of
    features/campaigns/api.ts (campaignKeys.detail) and features/ussd/api.ts (ussdKeys.info); for the
    page itself and its pledge form (``sub_page`` "" or "pledge") also, when the renderer gave it, the
    app's HTML of the page and the messages it shows.

    The pledge form's HTML carries its visitor's CSRF token: the render that is the same for everyone
    (no refused form) is cached with a placeholder in its place, put in here for each request."""
    ussd = json.dumps(ussd_info(request).model_dump())

    def queries(token: str | None) -> str:
        pledge = (
            f',{{"queryKey":["pledges","form",{campaign_id}],"data":{_pledge_form_json(token, pledge_form)}}}'
            if token is not None
            else ""
        )
        return (
            f'[{{"queryKey":["campaigns","detail",{campaign_id}],"data":{parts.campaign_json.decode()}}},'
            f'{{"queryKey":["ussd"],"data":{ussd}}}{pledge}]'
        )

    token = get_token(request) if sub_page == "pledge" else None
    page: tuple[str, str] | None = None  # its HTML, and the JSON of its messages
    if sub_page in RENDERED_CAMPAIGN_SUB_PAGES and settings.RENDERER_URL:
        language = current_language()
        if pledge_form is None:
            key = (
                f"spa:campaign-page:{campaign_id}:{sub_page}:{language}:{timezone.localdate()}:{parts.version}:"
                f"{_build_id(index_html())}"
            )
            page = shared_cache.get(key)
            placeholder = CSRF_TOKEN_PLACEHOLDER if token is not None else None
            if page is None and (page := _rendered(request, language, queries(placeholder))):
                shared_cache.set(key, page, timeout=VERSION_SECONDS)
            if page and token is not None:
                page = (page[0].replace(CSRF_TOKEN_PLACEHOLDER, token), page[1])
        else:  # what one visitor typed: rendered for them alone
            page = _rendered(request, language, queries(token))
    html, messages = page or ("", "")
    scripts = _script_json("page-queries", queries(token)) + (
        _script_json("page-messages", messages) if messages else ""
    )
    return f'<div id="root">{html}</div>{scripts}'


def _rendered(request: HttpRequest, language: str, queries_json: str) -> tuple[str, str] | None:
    """The renderer's HTML of this request's page, and the JSON of the messages it shows."""
    if fresh := page_render(path=request.path, language=language, queries_json=queries_json):
        return fresh.html, json.dumps(fresh.messages, ensure_ascii=False) if fresh.messages else ""
    return None


def _pledge_page_root(request: HttpRequest, code: str) -> tuple[str | None, int] | None:
    """<div id="root"> for a pledge's own page (/pledges/{code}), rendered, with the pledge as GET
    /api/pledges/{code} answers it under its query key (features/pledges/api.ts pledgeKeys.receipt),
    and the status, so that the receipt of a pledge sent without JavaScript shows without it. Never
    cached: what is paid changes. None (the browser asks the API) when the lookup is refused (too
    many from this address)."""
    try:
        pledge = pledge_get_by_code(code=code, client_ip=client_ip(request))
    except NotFoundError:
        return None, 404  # the app shows that no pledge has this code
    except RateLimitedError:
        return None
    # Encoded as django-ninja encodes the API's answer, so the page's data is the API's body.
    receipt = JSONRenderer().render(request, PledgeReceiptOut.from_pledge(pledge).model_dump(), response_status=200)
    queries = f'[{{"queryKey":["pledges","receipt",{json.dumps(code.upper())}],"data":{receipt}}}]'
    html, messages = (settings.RENDERER_URL and _rendered(request, current_language(), queries)) or ("", "")
    scripts = _script_json("page-queries", queries) + (_script_json("page-messages", messages) if messages else "")
    return f'<div id="root">{html}</div>{scripts}', 200


def _scripts_after_paint(html: str) -> str:
    """A page the server rendered paints without its scripts: frontend/public/after-paint.js asks for
    them once it has painted, so on a slow connection they do not hold back the CSS and the cover."""
    preloads = MODULE_PRELOAD_PATTERN.findall(html)
    html = MODULE_PRELOAD_PATTERN.sub("", html)
    return MODULE_SCRIPT_PATTERN.sub(
        lambda entry: (
            f'<script defer src="{settings.STATIC_URL}after-paint.js" data-entry="{entry[1]}" '
            f'data-preload="{" ".join(preloads)}"></script>'
        ),
        html,
        count=1,
    )


@require_safe
def spa(request: HttpRequest) -> HttpResponse:
    return spa_page(request)


def spa_page(request: HttpRequest, *, pledge_form: PledgeFormState | None = None, status: int = 200) -> HttpResponse:
    """The app's page for ``request.path``; on a campaign's pledge page, with ``pledge_form``: the form
    sent without JavaScript that was refused (answered with ``status``)."""
    # The app shows this language from its first paint (LocaleMiddleware chose it).
    html = index_html().replace('<html lang="en">', f'<html lang="{current_language()}">', 1)
    status = status if CLIENT_ROUTE_PATTERN.match(request.path) else 404
    cache_control = "no-cache"  # the HTML names the current hashed bundles, so it must never be served stale
    public_campaign_page = False
    root: str | None = None
    if campaign_page := CAMPAIGN_PAGE_PATTERN.match(request.path):
        viewer = request.user if isinstance(request.user, User) and request.user.is_authenticated else None
        digits = campaign_page[1]
        campaign_id = int(digits) if len(digits) <= 20 else 0  # no id is longer; int() refuses huge text
        parts = campaign_page_parts(campaign_id=campaign_id, user=viewer)
        if parts is None:
            status = 404  # the app shows 'Campaign not found'
        elif parts.head:
            html = TITLE_PATTERN.sub("", html, count=1).replace("</head>", f"{parts.head}</head>", 1)
            sub_page = (campaign_page[2] or "").strip("/")
            root = _campaign_page_root(request, campaign_id, parts, sub_page=sub_page, pledge_form=pledge_form)
            # The pledge form carries its visitor's CSRF token: kept by no cache, the micro-cache included.
            public_campaign_page = sub_page != "pledge"
            if not public_campaign_page:
                cache_control = PRIVATE
    elif pledge_page := PLEDGE_PAGE_PATTERN.match(request.path):
        found = _pledge_page_root(request, pledge_page[1])
        if found is not None:
            root, status = found
        cache_control = PRIVATE  # the pledger's name and what they paid
    if root is not None:
        html = ROOT_PATTERN.sub(lambda _: root, html, count=1)
        if not root.startswith('<div id="root"></div>'):
            html = _scripts_after_paint(html)
    response = HttpResponse(html, status=status)
    response["Cache-Control"] = cache_control
    if public_campaign_page:
        # The same for every visitor: the micro-cache may keep it for a few seconds.
        cache_for_visitors(request, response, otherwise="no-cache")
    return response
