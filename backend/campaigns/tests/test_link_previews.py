"""/campaign/{id} answers index.html with the campaign's link preview tags and data (config/spa.py);
its render by the app's renderer: config/tests/test_spa.py."""

import json
import re

import pytest

from campaigns.models import MediaType
from campaigns.tests.factories import CampaignFactory
from config.tests.test_spa import without_style_nonce

pytestmark = pytest.mark.django_db

INDEX_HTML = (
    "<!doctype html><html><head><meta charset='UTF-8' /><title>Harambee</title></head>"
    "<body><div id='root'></div></body></html>"
)
PAGE_QUERIES = re.compile(r'<script type="application/json" id="page-queries">(.*?)</script>', re.DOTALL)


def page_queries(html):
    """The raw JSON text of the answers the page carries for its hooks."""
    found = PAGE_QUERIES.search(html)
    assert found is not None
    return found.group(1)


@pytest.fixture(autouse=True)
def built_frontend(settings, tmp_path):
    (tmp_path / "index.html").write_text(INDEX_HTML, encoding="utf-8")
    settings.FRONTEND_DIST = tmp_path
    settings.SITE_URL = "https://harambee.example"


def meta(html, key):
    """The content of the one meta tag with that property or name."""
    found = re.findall(rf'<meta (?:property|name)="{re.escape(key)}" content="([^"]*)">', html)
    assert len(found) == 1, f"{key}: {found}"
    return found[0]


@pytest.mark.parametrize("suffix", ["", "/", "/donate", "/pledge", "/edit"])
def test_an_active_campaign_page_carries_its_preview_tags(visitor_client, campaign, suffix):
    response = visitor_client.get(f"/campaign/{campaign.pk}{suffix}")

    assert response.status_code == 200
    html = response.content.decode()
    assert meta(html, "og:title") == "Church Roof Repair"
    assert meta(html, "og:description") == "Help us reach our goal."
    assert meta(html, "og:image") == "https://example.com/cover.jpg"
    assert meta(html, "og:url") == f"https://harambee.example/campaign/{campaign.pk}"
    assert meta(html, "twitter:card") == "summary_large_image"
    assert meta(html, "twitter:title") == "Church Roof Repair"
    assert meta(html, "twitter:image") == "https://example.com/cover.jpg"
    assert html.count("<title>") == 1
    assert "<title>Church Roof Repair | Harambee</title>" in html
    assert html.index("og:title") < html.index("</head>")
    # The pledge form carries the visitor's CSRF token (config/pledge_form.py).
    assert response["Cache-Control"] == ("private, no-store" if suffix == "/pledge" else "no-cache")


def test_the_page_embeds_the_campaign_as_a_visitor_sees_it_in_the_api(visitor_client, organizer_client, campaign):
    html = organizer_client.get(f"/campaign/{campaign.pk}").content.decode()

    [query, _ussd, _accountability] = json.loads(page_queries(html))
    embedded = query["data"]

    # The organizer's own fields (e-mail, can_edit) stay out of the shared page.
    assert embedded == visitor_client.get(f"/api/campaigns/{campaign.pk}").json()
    assert embedded["organizer"] is None


def test_every_value_is_escaped(visitor_client):
    title = '"><script>alert("title")</script>'
    description = "</script><script>alert('description')</script> & more"
    campaign = CampaignFactory.create(title=title, description=description, story="</script><!--")

    html = visitor_client.get(f"/campaign/{campaign.pk}").content.decode()

    assert "<script>alert" not in html
    assert "<!--" not in html
    assert meta(html, "og:title") == "&quot;&gt;&lt;script&gt;alert(&quot;title&quot;)&lt;/script&gt;"
    assert meta(html, "og:description").endswith("&amp; more")
    raw_json = page_queries(html)
    assert "<" not in raw_json
    assert "\\u003C/script\\u003E" in raw_json
    assert json.loads(raw_json)[0]["data"]["title"] == title


def test_a_youtube_cover_previews_with_its_thumbnail(visitor_client):
    campaign = CampaignFactory.create(image_url="", youtube_id="dQw4w9WgXcQ", media_type=MediaType.YOUTUBE)

    html = visitor_client.get(f"/campaign/{campaign.pk}").content.decode()

    assert meta(html, "og:image") == "https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg"


def test_covers_on_this_site_and_missing_covers_get_absolute_image_urls(visitor_client):
    local = CampaignFactory.create(image_url="/static/campaigns/covers/water.svg")
    bare = CampaignFactory.create(image_url="")

    local_html = visitor_client.get(f"/campaign/{local.pk}").content.decode()
    bare_html = visitor_client.get(f"/campaign/{bare.pk}").content.decode()

    assert meta(local_html, "og:image") == "https://harambee.example/static/campaigns/covers/water.svg"
    assert meta(bare_html, "og:image") == "https://harambee.example/static/campaigns/covers/default.svg"


def test_a_long_description_is_shortened_for_the_preview(visitor_client):
    campaign = CampaignFactory.create(description="word " * 100)

    html = visitor_client.get(f"/campaign/{campaign.pk}").content.decode()

    assert len(meta(html, "og:description")) <= 200


@pytest.mark.parametrize(
    "path", ["/campaign/999999", "/campaign/0", f"/campaign/{'9' * 25}", f"/campaign/{'9' * 5000}"]
)
def test_a_missing_campaign_answers_404_with_the_plain_app(visitor_client, path):
    response = visitor_client.get(path)

    assert response.status_code == 404
    assert without_style_nonce(response.content.decode()) == INDEX_HTML


def test_a_pending_campaign_is_404_without_preview_for_others(visitor_client, member_client, pending_campaign):
    for client in (visitor_client, member_client):
        response = client.get(f"/campaign/{pending_campaign.pk}")
        assert response.status_code == 404
        assert without_style_nonce(response.content.decode()) == INDEX_HTML


def test_a_pending_campaign_page_opens_for_its_organizer_without_preview(organizer_client, pending_campaign):
    response = organizer_client.get(f"/campaign/{pending_campaign.pk}")

    assert response.status_code == 200
    assert without_style_nonce(response.content.decode()) == INDEX_HTML


def test_other_routes_are_untouched(visitor_client, campaign):
    assert without_style_nonce(visitor_client.get(f"/edit-campaign/{campaign.pk}").content.decode()) == INDEX_HTML
    assert without_style_nonce(visitor_client.get("/privacy").content.decode()) == INDEX_HTML
    assert visitor_client.get(f"/campaign/{campaign.pk}/nope").status_code == 404
