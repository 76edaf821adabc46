"""Serves the built React app: index.html for every client route.

The client router decides what to show; this knows the route table well enough to
answer 404 for paths no client route matches (e.g. /pledge/abc), so crawlers and
link previews see the truth. The route table is common/client_routes.py.

The public pages (``PUBLIC_PAGES``: one row each) come rendered: the app's own HTML for the page from
the renderer (common/page_rendering.py), which the browser hydrates (src/main.tsx). Each row's function
gives the answers the page's hooks would fetch first, exactly as the API answers a visitor, under the
hooks' query keys (they go into ``<script type="application/json" id="page-queries">``, so the app
starts without waiting for the API), and what the render depends on: it is the same for every visitor,
so it is kept in the shared cache per page, language, data version (or a short time) and build
(index.html), with its data and, when not in English, the messages it shows (``<script
type="application/json" id="page-messages">``), so hydrating it does not wait for the language's whole
catalogue. Nothing of the visitor is in these pages: the forms on them (sign-in, sign-up, donate) post
through the API with the CSRF token of the session answer the app fetches. Without a renderer a page
goes out with an empty root (and its data), for the browser to render.

A public campaign's pages also carry its link-preview tags, and its data on every sub-page.

The pledge page (/campaign/{id}/pledge) is rendered too, with a plain HTML form that posts without
JavaScript (config/pledge_form.py): its data carries the visitor's CSRF token, in the shared render as a
placeholder put in for each request, and after a refused post what they typed and why (rendered for
them alone); such pages are ``private, no-store``. A pledge's own page (/pledges/{code}) is rendered
for each request, its 'Pay now' form likewise with the visitor's CSRF token and a fresh idempotency
key, so it posts without JavaScript too (config/pledge_form.py).
"""

import hashlib
import json
import logging
import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache as shared_cache
from django.http import HttpRequest, HttpResponse, QueryDict
from django.middleware.csrf import get_token
from django.urls import resolve
from django.utils import timezone
from django.views.decorators.http import require_safe

from accounts.models import User
from campaigns.caching import VERSION_SECONDS
from campaigns.sharing import campaign_page_parts
from common.cache_control import PRIVATE, cache_for_visitors
from common.client_routes import CLIENT_ROUTE_PATTERN
from common.languages import current_language
from common.page_rendering import page_render
from ussd.api import ussd_info

logger = logging.getLogger(__name__)

ROOT_PATTERN = re.compile(r"""<div id=(["'])root\1></div>""")
TITLE_PATTERN = re.compile(r"<title>.*?</title>", re.DOTALL)
MODULE_PRELOAD_PATTERN = re.compile(r"""\s*<link rel="modulepreload" crossorigin href="([^"]+)">""")
MODULE_SCRIPT_PATTERN = re.compile(r"""<script type="module" crossorigin src="([^"]+)"></script>""")

# Inside JSON, these occur only in strings, where the escapes mean the same: no "</script>" can end
# the script early, nor "<!--" change how it is parsed.
SCRIPT_SAFE_JSON = str.maketrans({"<": "\\u003C", ">": "\\u003E", "&": "\\u0026"})

# How long a render of data that has no version (success stories, Explore's first page) is kept:
# what a visitor's own fetch would show a minute later anyway.
LIST_RENDER_SECONDS = 60
# Explore's first page, as features/campaigns/api.ts asks for it (EXPLORE_PAGE_SIZE).
EXPLORE_PAGE_SIZE = 12
# Where a render of the pledge form has its visitor's CSRF token (letters: HTML leaves it as it is).
CSRF_TOKEN_PLACEHOLDER = "csrfTokenOfThisVisitor"  # noqa: S105 (not a secret: where one goes)


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
class Page:
    """What the server gives a public page: ``queries`` makes the JSON list of ``{queryKey, data}``
    (the answers its hooks fetch first); ``version`` names that data in the render's cache key (None:
    the page is not rendered, only its data goes out), kept ``seconds``; ``head``: link-preview tags."""

    queries: Callable[[], str]
    version: str | None
    seconds: int = VERSION_SECONDS
    head: str = ""
    # False: rendered for this request alone, never kept (a refused pledge form, a pledge's page).
    shared: bool = True
    # The page carries something of this visitor (``CSRF_TOKEN_PLACEHOLDER`` becomes their CSRF token):
    # no shared cache may keep it.
    private: bool = False


def _visitor_answer(request: HttpRequest, path: str, query: str = "") -> HttpResponse:
    """What the API answers a visitor (no cookie, nobody signed in) for GET ``path?query``: the
    endpoint itself answers, so the page's data is the API's body byte for byte."""
    visitor = HttpRequest()
    visitor.method = "GET"
    visitor.path = visitor.path_info = path
    visitor.META = {
        key: value for key, value in request.META.items() if key not in ("HTTP_COOKIE", "HTTP_AUTHORIZATION")
    } | {"QUERY_STRING": query, "REQUEST_METHOD": "GET"}
    visitor.GET = QueryDict(query)
    visitor.user = AnonymousUser()
    match = resolve(path)
    return match.func(visitor, *match.args, **match.kwargs)


class _NoVisitorData(Exception):
    """The API did not answer a page's data (the database is out, a limit refused it): the page goes
    out without data nor render, for the browser to ask and show what it gets, as without a renderer."""


def _visitor_body(request: HttpRequest, path: str, query: str = "") -> bytes:
    """The body of the API's 200 answer to a visitor for GET ``path?query``; ``_NoVisitorData`` otherwise,
    so an error's body is never taken for the page's data."""
    answer = _visitor_answer(request, path, query)
    if answer.status_code != 200:
        raise _NoVisitorData(f"GET {path} answered {answer.status_code}")
    return answer.content


def _queries(*queries: tuple[list[object], str | bytes]) -> str:
    """The JSON list of page queries: each a query key, and its data (already JSON, as the API sent it)."""
    return (
        "["
        + ",".join(
            f'{{"queryKey":{json.dumps(key, separators=(",", ":"))},"data":{data.decode() if isinstance(data, bytes) else data}}}'
            for key, data in queries
        )
        + "]"
    )


def _landing(request: HttpRequest, _match: re.Match[str]) -> Page:
    """/: the success stories (features/landing/api.ts landingKeys.successStories)."""
    return Page(
        queries=lambda: _queries((["success-stories"], _visitor_body(request, "/api/success-stories"))),
        version="",
        seconds=LIST_RENDER_SECONDS,
    )


def _how_it_works(request: HttpRequest, _match: re.Match[str]) -> Page:
    """/how-it-works: the platform's fees (features/payments/api.ts paymentKeys.fees), from settings."""
    return Page(queries=lambda: _queries((["fees"], _visitor_body(request, "/api/fees"))), version="")


def _form_page(request: HttpRequest, _match: re.Match[str]) -> Page:
    """/signin, /signup: no data. With a query string (?next=…, which the page's links carry on) the
    browser renders it: renders are kept only for what every visitor asks."""
    return Page(queries=_queries, version=None if request.META.get("QUERY_STRING") else "")


def _explore(request: HttpRequest, _match: re.Match[str]) -> Page:
    """/explore: the categories and the first page of campaigns without filters (features/campaigns/
    api.ts campaignKeys.categories and .list, an infinite query's pages). A search (?q=, ?category=)
    is the browser's to render."""

    def queries() -> str:
        campaigns = _visitor_answer(request, "/api/campaigns", f"page=1&page_size={EXPLORE_PAGE_SIZE}")
        if campaigns.status_code != 200:
            raise _NoVisitorData(f"GET /api/campaigns answered {campaigns.status_code}")
        total = int(campaigns["X-Total-Count"])
        first_page = f'{{"pages":[{{"campaigns":{campaigns.content.decode()},"total":{total}}}],"pageParams":[1]}}'
        return _queries(
            (["campaign-categories"], _visitor_body(request, "/api/campaign-categories")),
            (["campaigns", "list", {"q": "", "category": ""}], first_page),
        )

    return Page(
        queries=queries,
        version=None if request.META.get("QUERY_STRING") else "",
        seconds=LIST_RENDER_SECONDS,
    )


def _campaign_queries(
    request: HttpRequest, campaign_id: int, campaign_json: bytes
) -> list[tuple[list[object], str | bytes]]:
    """The campaign as a visitor sees it and the USSD code (features/campaigns/api.ts
    campaignKeys.detail, features/ussd/api.ts ussdKeys.info)."""
    return [
        (["campaigns", "detail", campaign_id], campaign_json),
        (["ussd"], json.dumps(ussd_info(request).model_dump())),
    ]


# The campaign's pages rendered on the server; its others (edit, poster, live, events) carry its data.
RENDERED_CAMPAIGN_SUB_PAGES = ("", "/donate", "/pledge", "/spending")
# The campaign's pages that show how the money was used (its page's section, and the page itself).
ACCOUNTABILITY_SUB_PAGES = ("", "/spending")


@dataclass(frozen=True)
class PledgeFormState:
    """A pledge form sent without JavaScript that was refused (config/pledge_form.py): what was typed,
    by the form's field names, and the refusal in the API's error shape."""

    values: dict[str, str | bool]
    error: dict[str, object]


def _pledge_form_json(state: PledgeFormState | None) -> str:
    """The pledge form's data (features/pledges/api.ts pledgeKeys.form): its CSRF field's token (the
    placeholder) and a refused form's values and error, so it renders as a form that posts without
    JavaScript."""
    return json.dumps(
        {
            "csrf_token": CSRF_TOKEN_PLACEHOLDER,
            "values": state.values if state else None,
            "error": state.error if state else None,
        },
        ensure_ascii=False,
    )


def _campaign(request: HttpRequest, match: re.Match[str], *, pledge_form: PledgeFormState | None = None) -> Page | None:
    """/campaign/{id} and its sub-pages: None (404) when the campaign is missing or hidden from the
    viewer; no data for a campaign only its organizer or an admin may see. The pledge page also has
    its form's data (with ``pledge_form``: a form the server refused)."""
    viewer = request.user if isinstance(request.user, User) and request.user.is_authenticated else None
    digits = match[1]
    campaign_id = int(digits) if len(digits) <= 20 else 0  # no id is longer; int() refuses huge text
    parts = campaign_page_parts(campaign_id=campaign_id, user=viewer)
    if parts is None:
        return None  # the app shows 'Campaign not found'
    if not parts.head:
        return Page(queries=lambda: "", version=None)
    sub_page = match[2] or ""
    pledging = sub_page == "/pledge"
    form = [(["pledges", "form", campaign_id], _pledge_form_json(pledge_form))] if pledging else []

    def accountability() -> list[tuple[list[object], str | bytes]]:
        """How the money was used (features/spending/api.ts spendingKeys.accountability)."""
        if sub_page not in ACCOUNTABILITY_SUB_PAGES:
            return []
        path = f"/api/campaigns/{campaign_id}/accountability"
        return [(["spending", "accountability", campaign_id], _visitor_body(request, path))]

    return Page(
        queries=lambda: _queries(
            *_campaign_queries(request, campaign_id, parts.campaign_json), *form, *accountability()
        ),
        # Labels and days_left depend on the Nairobi day.
        version=f"{parts.version}:{timezone.localdate()}" if sub_page in RENDERED_CAMPAIGN_SUB_PAGES else None,
        head=parts.head,
        shared=pledge_form is None,
        private=pledging,
    )


@dataclass(frozen=True)
class PayNowFormState:
    """A pledge page's 'Pay now' form sent without JavaScript (config/pledge_form.py): the amount typed,
    and either the refusal in the API's error shape or ``sent`` (the PIN prompt is on its way)."""

    amount: str
    error: dict[str, object] | None = None
    sent: bool = False


def _pay_now_json(state: PayNowFormState | None) -> str:
    """The 'Pay now' form's data (features/pledges/api.ts pledgeKeys.payNow): its CSRF field's token (the
    placeholder), a fresh idempotency key (sending the same form twice, a reload, sends one prompt), and
    after a post what was typed and how it went."""
    return json.dumps(
        {
            "csrf_token": CSRF_TOKEN_PLACEHOLDER,
            "key": uuid.uuid4().hex,
            "amount": state.amount if state else None,
            "error": state.error if state else None,
            "sent": state.sent if state else False,
        },
        ensure_ascii=False,
    )


def _pledge(request: HttpRequest, match: re.Match[str], *, pay_now: PayNowFormState | None = None) -> Page | None:
    """/pledges/{code}: the pledge as GET /api/pledges/{code} answers it (features/pledges/api.ts
    pledgeKeys.receipt), so the receipt of a pledge made without JavaScript shows without it, and its
    'Pay now' form's data (with ``pay_now``: the form just sent); None (404) for a code no pledge has.
    Rendered for each request: what is paid changes. When the lookup is refused (too many from this
    address) the browser asks the API itself."""
    answer = _visitor_answer(request, f"/api/pledges/{match[1]}")
    if answer.status_code == 404:
        return None
    if answer.status_code != 200:
        return Page(queries=_queries, version=None)
    code = match[1].upper()
    return Page(
        queries=lambda: _queries(
            (["pledges", "receipt", code], answer.content), (["pledges", "pay-now", code], _pay_now_json(pay_now))
        ),
        version="",
        shared=False,
        private=True,
    )


def _ministry(request: HttpRequest, _match: re.Match[str]) -> Page:
    """/icc-imara-donate: the campaign its buttons lead to (features/pledges/api.ts pledgeKeys.ministry:
    its id) and that campaign (campaignKeys.detail). Without one configured, the browser renders it."""
    answer = _visitor_answer(request, "/api/ministry-campaign")
    campaign_id = json.loads(answer.content)["campaign_id"] if answer.status_code == 200 else 0
    parts = campaign_page_parts(campaign_id=campaign_id, user=None) if campaign_id else None
    if parts is None:
        return Page(queries=_queries, version=None)
    return Page(
        queries=lambda: _queries(
            (["pledges", "ministry-campaign"], str(campaign_id)),
            *_campaign_queries(request, campaign_id, parts.campaign_json),
        ),
        version=f"{campaign_id}:{parts.version}:{timezone.localdate()}",
    )


# Public routes whose pages come from the server (rendered, or with their data): a pattern of the
# path, and the function giving the page (None: 404). Keep in step with frontend/src/App.tsx.
PUBLIC_PAGES: list[tuple[re.Pattern[str], Callable[[HttpRequest, re.Match[str]], Page | None]]] = [
    (re.compile(r"^/$"), _landing),
    (re.compile(r"^/how-it-works/?$"), _how_it_works),
    (re.compile(r"^/sign(?:in|up)/?$"), _form_page),
    (re.compile(r"^/explore/?$"), _explore),
    (re.compile(r"^/campaign/(\d+)(/(?:donate|pledge|edit|poster|live|events|spending))?/?$"), _campaign),
    (re.compile(r"^/icc-imara-donate/?$"), _ministry),
    (re.compile(r"^/pledges/([2-9a-hjkmnp-zA-HJKMNP-Z]{7})/?$"), _pledge),
]


def _page_root(request: HttpRequest, page: Page) -> tuple[str, bool] | None:
    """<div id="root"> with the page's render (from the shared cache, else the renderer's, when it
    answers) and its data, and whether it is rendered; None when there is neither. The render is kept
    with the data it was made from."""
    try:
        return _page_root_with_data(request, page)
    except _NoVisitorData as missing:
        logger.warning("%s goes out for the browser to render: %s", request.path, missing)
        return None


def _page_root_with_data(request: HttpRequest, page: Page) -> tuple[str, bool] | None:
    rendered: tuple[str, str, str] | None = None  # its HTML, the JSON of its messages, and of its data
    if page.version is not None and settings.RENDERER_URL:
        language = current_language()
        key = f"spa:page:{request.path.rstrip('/')}:{language}:{page.version}:{_build_id(index_html())}"
        rendered = shared_cache.get(key) if page.shared else None
        if rendered is None:
            queries = page.queries()
            if fresh := page_render(path=request.path, language=language, queries_json=queries):
                messages = json.dumps(fresh.messages, ensure_ascii=False) if fresh.messages else ""
                rendered = (fresh.html, messages, queries)
                if page.shared:
                    shared_cache.set(key, rendered, timeout=page.seconds)
            else:
                rendered = ("", "", queries)
    html, messages, queries = rendered or ("", "", page.queries())
    if page.private:  # this visitor's CSRF token (which also sets its cookie), in place of the placeholder
        token = get_token(request)
        html, queries = html.replace(CSRF_TOKEN_PLACEHOLDER, token), queries.replace(CSRF_TOKEN_PLACEHOLDER, token)
    scripts = (_script_json("page-queries", queries) if queries not in ("", "[]") else "") + (
        _script_json("page-messages", messages) if messages else ""
    )
    if not html and not scripts:
        return None
    return f'<div id="root">{html}</div>{scripts}', bool(html)


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


def spa_page(
    request: HttpRequest,
    *,
    pledge_form: PledgeFormState | None = None,
    pay_now: PayNowFormState | None = None,
    status: int = 200,
) -> HttpResponse:
    """The app's page for ``request.path``; on a campaign's pledge page, with ``pledge_form``: the form
    sent without JavaScript that the server refused (answered with ``status``); on a pledge's page, with
    ``pay_now``: its 'Pay now' form sent without JavaScript."""
    # The app shows this language from its first paint (LocaleMiddleware chose it).
    html = index_html().replace('<html lang="en">', f'<html lang="{current_language()}">', 1)
    status = status if CLIENT_ROUTE_PATTERN.match(request.path) else 404
    page: Page | None = None
    for pattern, page_of in PUBLIC_PAGES:
        if match := pattern.match(request.path):
            if page_of is _campaign:
                page = _campaign(request, match, pledge_form=pledge_form)
            elif page_of is _pledge:
                page = _pledge(request, match, pay_now=pay_now)
            else:
                page = page_of(request, match)
            status = status if page is not None else 404
            break
    rendered = False
    if page is not None:
        if page.head:
            html = TITLE_PATTERN.sub("", html, count=1).replace("</head>", f"{page.head}</head>", 1)
        if found := _page_root(request, page):
            root, rendered = found
            html = ROOT_PATTERN.sub(lambda _: root, html, count=1)
        if rendered:
            html = _scripts_after_paint(html)
    response = HttpResponse(status=status)
    # The HTML names the current hashed bundles, so it must never be served stale.
    response["Cache-Control"] = "no-cache"
    if page is not None and page.private:
        response["Cache-Control"] = PRIVATE
    elif page is not None and (page.head or rendered):
        # The same for every visitor: the micro-cache may keep it for a few seconds.
        cache_for_visitors(request, response, otherwise="no-cache")
    if not response["Cache-Control"].startswith("public"):
        # This response's own CSP nonce (CSPMiddleware puts it in the header once read), for the <style>
        # of a modal dialog (src/main.tsx). A nonce is good once: a page the micro-cache shares goes
        # without, and a dialog opened there leaves the page's scroll unlocked.
        nonce = request.csp_nonce  # type: ignore[attr-defined]
        html = html.replace("</head>", f'<meta property="csp-nonce" nonce="{nonce}"></head>', 1)
    response.content = html
    return response
