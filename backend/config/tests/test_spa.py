import contextlib
import json
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.conf import settings
from django.db import DatabaseError, connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.tests.factories import UserFactory
from campaigns.models import CampaignStatus
from campaigns.tests.factories import CampaignFactory
from common import page_rendering
from common.client_routes import CLIENT_ROUTE_PATTERN

INDEX_HTML = "<!doctype html><title>Harambee</title><div id='root'></div>"


@pytest.fixture(autouse=True)
def built_frontend(settings, tmp_path):
    (tmp_path / "index.html").write_text(INDEX_HTML, encoding="utf-8")
    settings.FRONTEND_DIST = tmp_path


@pytest.mark.parametrize(
    "path",
    [
        "/forgot-password",
        "/reset-password",
        "/dashboard",
        "/profile",
        "/pledge/12",
        "/pledge/create-campaign",
        "/edit-campaign/5",
        "/organizations",
        "/organizations/3",
        "/invitation",
        "/orgs/3/collection-accounts/4/mpesa",
    ],
)
def test_client_routes_answer_the_app_html_uncached(client, path):
    response = client.get(path)

    assert response.status_code == 200
    assert response["Content-Type"] == "text/html; charset=utf-8"
    assert response["Cache-Control"] == "no-cache"
    assert response.content.decode() == INDEX_HTML


@pytest.mark.parametrize("path", ["/campaign/5", "/campaign/5/", "/campaign/5/donate", "/campaign/5/pledge"])
def test_campaign_pages_are_client_routes(path):
    # Over HTTP they also need the campaign to exist: campaigns/tests/test_link_previews.py.
    assert CLIENT_ROUTE_PATTERN.match(path)


def test_client_routes_keep_their_query_string(client):
    assert client.get("/reset-password?uid=MQ&token=abc").status_code == 200


@pytest.mark.parametrize(
    "path",
    [
        "/nope",
        "/pledge/abc",
        "/pledges/ABC",
        "/pledges/K7Q2M9XX",
        "/campaign/abc",
        "/campaign/5/nope",
        "/signin/extra",
        "/orgs/3/collection-accounts/x/mpesa",
    ],
)
def test_unknown_paths_answer_404_with_the_app_html(client, path):
    response = client.get(path)

    assert response.status_code == 404
    assert response["Cache-Control"] == "no-cache"
    assert response.content.decode() == INDEX_HTML


def test_posting_to_a_client_route_is_not_allowed(client):
    assert client.post("/signin").status_code == 405


def test_posting_to_a_client_route_without_the_csrf_token_is_refused_first():
    assert Client(enforce_csrf_checks=True).post("/signin").status_code == 403


def test_an_unbuilt_frontend_gets_a_page_saying_how_to_build_it(settings, tmp_path):
    settings.FRONTEND_DIST = tmp_path / "missing"

    response = Client().get("/")

    assert response.status_code == 200
    assert "The frontend is not built yet" in response.content.decode()


# The campaign page, rendered by the app's renderer (common/page_rendering.py) and cached.

CAMPAIGN_INDEX_HTML = (
    '<!doctype html><html lang="en"><head><title>Harambee</title></head><body><div id="root"></div></body></html>'
)
RENDERED = '<div class="page"><h1>rendered</h1></div>'
PAGE_MESSAGES = re.compile(r'<script type="application/json" id="page-messages">(.*?)</script>', re.DOTALL)
PAGE_QUERIES = re.compile(r'<script type="application/json" id="page-queries">(.*?)</script>', re.DOTALL)


class FakeRenderer:
    """A renderer on loopback that answers ``status`` with ``html`` and ``messages`` after ``delay``
    seconds and keeps what it was asked."""

    def __init__(self) -> None:
        self.requests: list[dict] = []
        self.messages: dict[str, list[str]] = {}
        self.status, self.html, self.delay = 200, RENDERED, 0.0
        renderer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                renderer.requests.append({"url": self.path, **json.loads(body)})
                time.sleep(renderer.delay)
                self.send_response(renderer.status)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                with contextlib.suppress(BrokenPipeError):  # a slow answer's asker is gone
                    self.wfile.write(json.dumps({"html": renderer.html, "messages": renderer.messages}).encode())

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def campaign_site(settings, tmp_path, monkeypatch):
    (tmp_path / "index.html").write_text(CAMPAIGN_INDEX_HTML, encoding="utf-8")
    settings.FRONTEND_DIST = tmp_path
    # Each test starts with a renderer this process has not given up on.
    monkeypatch.setattr(page_rendering, "_retry_at", 0.0)


@pytest.fixture
def renderer(settings, campaign_site):
    fake = FakeRenderer()
    settings.RENDERER_URL = fake.url
    yield fake
    fake.close()


@pytest.fixture
def active_campaign(db):
    return CampaignFactory.create(title="Church Roof Repair", category="church", story="Our roof </script><!-- leaks.")


def page_queries(html: str) -> list[dict]:
    found = PAGE_QUERIES.search(html)
    assert found is not None
    assert "<" not in found[1]  # nothing in it can end the script
    return json.loads(found[1])


def root_of(html: str) -> str:
    return html[html.index('<div id="root">') : html.index('<script type="application/json"')]


def test_the_campaign_page_is_the_renderer_s_html_of_the_app_with_its_data(renderer, active_campaign):
    response = Client().get(f"/campaign/{active_campaign.pk}")

    assert response.status_code == 200
    html = response.content.decode()
    assert root_of(html) == f'<div id="root">{RENDERED}</div>'
    campaign_json = Client().get(f"/api/campaigns/{active_campaign.pk}").json()
    accountability = Client().get(f"/api/campaigns/{active_campaign.pk}/accountability").json()
    queries = [
        {"queryKey": ["campaigns", "detail", active_campaign.pk], "data": campaign_json},
        {"queryKey": ["ussd"], "data": {"service_code": settings.USSD_SERVICE_CODE}},
        # Its section 'How the money was used' (features/spending/api.ts).
        {"queryKey": ["spending", "accountability", active_campaign.pk], "data": accountability},
    ]
    assert page_queries(html) == queries
    # The renderer gets what the browser gets: the same answers, under the same query keys.
    assert renderer.requests == [
        {"url": "/render", "path": f"/campaign/{active_campaign.pk}", "language": "en", "queries": queries}
    ]


def test_how_the_money_was_used_is_rendered_with_its_figures(renderer, active_campaign):
    response = Client().get(f"/campaign/{active_campaign.pk}/spending")

    assert response.status_code == 200
    assert root_of(response.content.decode()) == f'<div id="root">{RENDERED}</div>'
    keys = [query["queryKey"] for query in renderer.requests[0]["queries"]]
    assert ["spending", "accountability", active_campaign.pk] in keys


def test_the_render_is_cached_until_the_campaign_changes(renderer, active_campaign):
    first = Client().get(f"/campaign/{active_campaign.pk}").content
    again = Client().get(f"/campaign/{active_campaign.pk}").content
    assert again == first
    assert len(renderer.requests) == 1

    active_campaign.title = "Church Roof and Walls"
    active_campaign.save()
    renderer.html = "<h1>Church Roof and Walls</h1>"
    changed = Client().get(f"/campaign/{active_campaign.pk}").content.decode()

    assert len(renderer.requests) == 2
    assert renderer.requests[1]["queries"][0]["data"]["title"] == "Church Roof and Walls"
    assert root_of(changed) == '<div id="root"><h1>Church Roof and Walls</h1></div>'


def test_each_language_has_its_own_render_with_the_messages_it_shows(renderer, active_campaign):
    english = Client().get(f"/campaign/{active_campaign.pk}").content.decode()
    renderer.messages = {"abc123": ["Ahadi </script>"]}
    kiswahili = Client(HTTP_ACCEPT_LANGUAGE="sw").get(f"/campaign/{active_campaign.pk}").content.decode()
    again = Client(HTTP_ACCEPT_LANGUAGE="sw").get(f"/campaign/{active_campaign.pk}").content.decode()

    assert [request["language"] for request in renderer.requests] == ["en", "sw"]
    assert renderer.requests[1]["queries"][0]["data"]["category_label"] == "Kanisa"
    assert PAGE_MESSAGES.search(english) is None  # English text is in the app itself
    messages = PAGE_MESSAGES.search(kiswahili)
    assert messages is not None and "<" not in messages[1]
    assert json.loads(messages[1]) == {"abc123": ["Ahadi </script>"]}
    assert again == kiswahili


def test_a_signed_in_viewer_gets_the_visitors_render_and_nothing_of_their_own(
    renderer, make_api_client, active_campaign
):
    organizer = make_api_client(signed_in_as=active_campaign.organizer)

    html = organizer.get(f"/campaign/{active_campaign.pk}").content.decode()

    visitor_view = Client().get(f"/api/campaigns/{active_campaign.pk}").json()
    assert visitor_view["organizer"] is None and visitor_view["can_edit"] is False
    assert renderer.requests[0]["queries"][0]["data"] == visitor_view
    assert page_queries(html)[0]["data"] == visitor_view
    # A visitor then gets the same render, from the cache.
    assert root_of(Client().get(f"/campaign/{active_campaign.pk}").content.decode()) == root_of(html)
    assert len(renderer.requests) == 1


@pytest.mark.parametrize("failure", ["refused", "error", "slow"])
def test_without_its_render_the_page_goes_out_for_the_browser_to_render(
    settings, campaign_site, active_campaign, caplog, failure
):
    fake = FakeRenderer()
    settings.RENDERER_URL, settings.RENDERER_TIMEOUT_SECONDS = fake.url, 0.2
    if failure == "refused":
        fake.close()
    elif failure == "error":
        fake.status = 500
    else:
        fake.delay = 0.5

    response = Client().get(f"/campaign/{active_campaign.pk}")

    assert response.status_code == 200
    html = response.content.decode()
    assert root_of(html) == '<div id="root"></div>'
    assert page_queries(html)[0]["data"]["title"] == "Church Roof Repair"
    assert "The renderer did not render" in caplog.text
    if failure != "refused":
        fake.close()


def test_after_a_failure_the_renderer_is_left_alone_for_a_while_and_nothing_is_cached(
    renderer, active_campaign, monkeypatch
):
    renderer.status = 500
    Client().get(f"/campaign/{active_campaign.pk}")
    Client().get(f"/campaign/{active_campaign.pk}")
    assert len(renderer.requests) == 1

    renderer.status = 200
    monkeypatch.setattr(page_rendering, "_retry_at", 0.0)  # the pause is over
    html = Client().get(f"/campaign/{active_campaign.pk}").content.decode()

    assert len(renderer.requests) == 2
    assert root_of(html) == f'<div id="root">{RENDERED}</div>'


def test_the_campaign_s_other_pages_carry_its_data_but_are_not_rendered(renderer, active_campaign):
    html = Client().get(f"/campaign/{active_campaign.pk}/poster").content.decode()

    assert root_of(html) == '<div id="root"></div>'
    assert page_queries(html)[0]["queryKey"] == ["campaigns", "detail", active_campaign.pk]
    assert renderer.requests == []


def test_a_hidden_campaign_is_still_404_without_a_render(renderer, db):
    hidden = CampaignFactory.create(status=CampaignStatus.PENDING)

    response = Client().get(f"/campaign/{hidden.pk}")

    assert response.status_code == 404
    assert without_style_nonce(response.content.decode()) == CAMPAIGN_INDEX_HTML
    assert renderer.requests == []


def test_without_a_renderer_nothing_is_asked_nor_looked_up(settings, campaign_site, active_campaign):
    settings.RENDERER_URL = ""
    Client().get(f"/api/campaigns/{active_campaign.pk}")  # the campaign's view is cached
    Client().get(f"/api/campaigns/{active_campaign.pk}/accountability")  # and how its money was used

    with CaptureQueriesContext(connection) as queries:
        html = Client().get(f"/campaign/{active_campaign.pk}").content.decode()

    assert root_of(html) == '<div id="root"></div>'
    assert len(queries) == 0


STYLE_NONCE = re.compile(r'<meta property="csp-nonce" nonce="([^"]+)"></head>')


def without_style_nonce(html: str) -> str:
    """A page as built, without the CSP nonce a response no shared cache keeps gets (config/spa.py)."""
    return STYLE_NONCE.sub("</head>", html)


def style_sources(response) -> list[str]:
    [directive] = [part for part in response["Content-Security-Policy"].split(";") if "style-src" in part]
    return directive.split()[1:]


def test_a_page_no_shared_cache_keeps_has_its_own_style_nonce_for_a_modal_dialog(
    renderer, make_api_client, active_campaign
):
    organizer = make_api_client(signed_in_as=active_campaign.organizer)
    pages = [
        Client().get(f"/campaign/{active_campaign.pk}/pledge"),  # private: it carries a CSRF token
        organizer.get(f"/campaign/{active_campaign.pk}"),  # a cookie: no shared cache answers it
        organizer.get("/dashboard"),
    ]

    nonces = []
    for response in pages:
        found = STYLE_NONCE.search(response.content.decode())
        assert found is not None
        assert style_sources(response) == ["'self'", f"'nonce-{found[1]}'"]
        nonces.append(found[1])
    assert len(set(nonces)) == len(nonces)


def test_a_page_the_micro_cache_shares_has_no_nonce(renderer, active_campaign):
    response = Client().get(f"/campaign/{active_campaign.pk}")

    assert response["Cache-Control"].startswith("public")
    assert "nonce" not in response.content.decode()
    assert style_sources(response) == ["'self'"]


def test_a_rendered_page_asks_for_its_scripts_once_painted(settings, renderer, active_campaign):
    built = CAMPAIGN_INDEX_HTML.replace(
        "</head>",
        '<script type="module" crossorigin src="/static/assets/index-1.js"></script>'
        '<link rel="modulepreload" crossorigin href="/static/assets/react-2.js"></head>',
    )
    (settings.FRONTEND_DIST / "index.html").write_text(built, encoding="utf-8")

    rendered = Client().get(f"/campaign/{active_campaign.pk}").content.decode()
    unrendered = Client().get(f"/campaign/{active_campaign.pk}/poster").content.decode()  # not rendered

    assert '<script type="module"' not in rendered and "modulepreload" not in rendered
    assert (
        '<script defer src="/static/after-paint.js" data-entry="/static/assets/index-1.js" '
        'data-preload="/static/assets/react-2.js"></script>'
    ) in rendered
    assert '<script type="module" crossorigin src="/static/assets/index-1.js"></script>' in unrendered
    assert "after-paint" not in unrendered


# The other public pages: one row each in config.spa.PUBLIC_PAGES.


@pytest.fixture
def ministry_campaign(active_campaign, settings):
    settings.MINISTRY_CAMPAIGN_ID = active_campaign.pk
    return active_campaign


def api_json(path: str) -> object:
    return Client().get(path).json()


def expected_queries(path: str, campaign_id: int) -> list[dict]:
    """What the page's hooks would fetch first, as the API answers a visitor, under their query keys."""
    campaign: list[dict] = [
        {"queryKey": ["campaigns", "detail", campaign_id], "data": api_json(f"/api/campaigns/{campaign_id}")},
        {"queryKey": ["ussd"], "data": {"service_code": settings.USSD_SERVICE_CODE}},
    ]
    first_page = Client().get("/api/campaigns?page=1&page_size=12")
    by_path: dict[str, list[dict]] = {
        "/": [{"queryKey": ["success-stories"], "data": api_json("/api/success-stories")}],
        "/how-it-works": [{"queryKey": ["fees"], "data": api_json("/api/fees")}],
        "/signin": [],
        "/signup": [],
        "/explore": [
            {"queryKey": ["campaign-categories"], "data": api_json("/api/campaign-categories")},
            {
                "queryKey": ["campaigns", "list", {"q": "", "category": ""}],
                "data": {
                    "pages": [{"campaigns": first_page.json(), "total": int(first_page["X-Total-Count"])}],
                    "pageParams": [1],
                },
            },
        ],
        f"/campaign/{campaign_id}/donate": campaign,
        "/icc-imara-donate": [
            {"queryKey": ["pledges", "ministry-campaign"], "data": campaign_id},
            *campaign,
        ],
    }
    return by_path[path]


PUBLIC_PAGE_PATHS = [
    "/",
    "/how-it-works",
    "/signin",
    "/signup",
    "/explore",
    "/campaign/{id}/donate",
    "/icc-imara-donate",
]


@pytest.mark.parametrize("path", PUBLIC_PAGE_PATHS)
def test_each_public_page_is_rendered_from_the_api_s_answers_for_a_visitor_and_cached(
    renderer, ministry_campaign, path
):
    path = path.format(id=ministry_campaign.pk)
    CampaignFactory.create(title="Featured", may_be_featured=True, raised_total=5_000)

    response = Client().get(path)
    again = Client().get(path)

    assert response.status_code == 200
    html = response.content.decode()
    assert f'<div id="root">{RENDERED}</div>' in html
    queries = expected_queries(path, ministry_campaign.pk)
    assert renderer.requests == [{"url": "/render", "path": path, "language": "en", "queries": queries}]
    if queries:
        assert page_queries(html) == queries
    assert again.content == response.content
    assert response["Cache-Control"].startswith("public")


@pytest.mark.parametrize("path", PUBLIC_PAGE_PATHS)
def test_without_its_render_a_public_page_goes_out_for_the_browser_to_render(renderer, ministry_campaign, path):
    renderer.status = 500

    response = Client().get(path.format(id=ministry_campaign.pk))

    assert response.status_code == 200
    assert RENDERED not in response.content.decode()
    assert len(renderer.requests) == 1


@pytest.mark.parametrize("path", ["/signin?next=/dashboard", "/signup?next=/dashboard", "/explore?q=roof"])
def test_a_page_asked_with_a_query_string_is_left_to_the_browser(renderer, db, path):
    response = Client().get(path)

    assert response.status_code == 200
    assert RENDERED not in response.content.decode()
    assert renderer.requests == []


def test_the_sign_in_form_s_render_carries_nothing_of_its_visitor(renderer, make_api_client, db):
    user = UserFactory.create()
    signed_in = make_api_client(signed_in_as=user)
    signed_in.get("/api/auth/session")  # the session answer sets the CSRF cookie

    html = signed_in.get("/signin").content.decode()

    assert "csrf" not in html.lower()
    assert user.email not in html
    assert renderer.requests[0]["queries"] == []
    # A visitor gets the same page, from the cache.
    assert Client().get("/signin").content.decode() == without_style_nonce(html)
    assert len(renderer.requests) == 1


def test_the_donate_page_is_rendered_anew_when_its_campaign_changes(renderer, active_campaign):
    Client().get(f"/campaign/{active_campaign.pk}/donate")
    active_campaign.title = "Church Roof and Walls"
    active_campaign.save()

    Client().get(f"/campaign/{active_campaign.pk}/donate")

    assert [request["queries"][0]["data"]["title"] for request in renderer.requests] == [
        "Church Roof Repair",
        "Church Roof and Walls",
    ]


def test_without_a_ministry_campaign_its_page_is_left_to_the_browser(renderer, db):
    response = Client().get("/icc-imara-donate")

    assert response.status_code == 200
    assert renderer.requests == []


@pytest.mark.parametrize(("path", "failing"), [("/", "success_stories"), ("/explore", "campaign_list")])
def test_a_page_whose_data_the_api_does_not_answer_goes_out_for_the_browser_without_it(
    renderer, db, monkeypatch, path, failing
):
    """An error's body is never taken for the page's data (the database out mid-request: 503)."""

    def database_gone(**_kwargs):
        raise DatabaseError("connection lost")

    monkeypatch.setattr(f"campaigns.selectors.{failing}", database_gone)

    response = Client().get(path)

    assert response.status_code == 200
    assert 'id="page-queries"' not in response.content.decode()
    assert renderer.requests == []
