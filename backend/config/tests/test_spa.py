import pytest
from django.test import Client

from common.client_routes import CLIENT_ROUTE_PATTERN

INDEX_HTML = "<!doctype html><title>Harambee</title><div id='root'></div>"


@pytest.fixture(autouse=True)
def built_frontend(settings, tmp_path):
    (tmp_path / "index.html").write_text(INDEX_HTML, encoding="utf-8")
    settings.FRONTEND_DIST = tmp_path


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/signin",
        "/signup/",
        "/forgot-password",
        "/reset-password",
        "/dashboard",
        "/profile",
        "/explore",
        "/pledge/12",
        "/pledges/K7Q2M9X",
        "/pledges/k7q2m9x",
        "/pledge/create-campaign",
        "/edit-campaign/5",
        "/icc-imara-donate",
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
