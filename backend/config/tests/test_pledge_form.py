"""Pledging without JavaScript (config/pledge_form.py): the pledge page's plain HTML form, posted by the browser."""

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.tests.factories import UserFactory
from campaigns.models import Campaign, CampaignStatus
from campaigns.tests.factories import CampaignFactory
from config.spa import CSRF_TOKEN_PLACEHOLDER
from config.tests.test_spa import CAMPAIGN_INDEX_HTML, FakeRenderer, page_queries, root_of, without_style_nonce
from payments.models import Payment
from pledges.models import Pledge

pytestmark = pytest.mark.django_db

FILLED = {
    "name": "Achieng Odhiambo",
    "email": "achieng@example.com",
    "phone": "0712 345 678",
    "amount": "5,000",
}
QUERIES = 8  # the limits, the campaign, the pledge and its code, the totals: no more than the API's
TOKEN_INPUT = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


@pytest.fixture(autouse=True)
def built_frontend(settings, tmp_path):
    (tmp_path / "index.html").write_text(CAMPAIGN_INDEX_HTML, encoding="utf-8")
    settings.FRONTEND_DIST = tmp_path


@pytest.fixture
def renderer(settings):
    """A renderer whose HTML is the pledge form's hidden field, with the token it was given."""
    fake = FakeRenderer()
    settings.RENDERER_URL = fake.url
    yield fake
    fake.close()


@pytest.fixture
def campaign(db):
    return CampaignFactory.create(title="Church Roof Repair")


def browser(address: str) -> Client:
    """A browser without JavaScript from its own address, checking CSRF as in production."""
    return Client(enforce_csrf_checks=True, REMOTE_ADDR=address)


def form_data(page: list[dict], campaign_id: int) -> dict:
    [data] = [query["data"] for query in page if query["queryKey"] == ["pledges", "form", campaign_id]]
    return data


def open_and_post(client: Client, campaign: Campaign, fields: dict[str, str]):
    """Open the pledge page (its CSRF cookie and token), then send its form with ``fields``."""
    page = client.get(f"/campaign/{campaign.pk}/pledge")
    token = form_data(page_queries(page.content.decode()), campaign.pk)["csrf_token"]
    return client.post(f"/campaign/{campaign.pk}/pledge", {"csrfmiddlewaretoken": token, **fields})


# GET: the page and its form -------------------------------------------------------------------


def test_the_pledge_page_carries_a_csrf_token_its_cookie_and_is_kept_by_no_shared_cache(campaign):
    response = browser("127.0.0.61").get(f"/campaign/{campaign.pk}/pledge")

    assert response.status_code == 200
    assert response["Cache-Control"] == "private, no-store"  # the micro-cache (deploy/nginx) keeps none of it
    assert "csrftoken" in response.cookies
    data = form_data(page_queries(response.content.decode()), campaign.pk)
    assert data == {"csrf_token": data["csrf_token"], "values": None, "error": None}
    assert len(data["csrf_token"]) == 64


def test_the_render_is_shared_and_each_visitor_gets_their_own_token_in_it(renderer, campaign):
    renderer.html = f'<form><input type="hidden" name="csrfmiddlewaretoken" value="{CSRF_TOKEN_PLACEHOLDER}"></form>'

    first = browser("127.0.0.62").get(f"/campaign/{campaign.pk}/pledge").content.decode()
    second = browser("127.0.0.62").get(f"/campaign/{campaign.pk}/pledge").content.decode()

    assert len(renderer.requests) == 1  # the second came from the cache
    [asked] = renderer.requests
    assert asked["path"] == f"/campaign/{campaign.pk}/pledge"
    assert form_data(asked["queries"], campaign.pk)["csrf_token"] == CSRF_TOKEN_PLACEHOLDER
    tokens = []
    for html in (first, second):
        [token] = TOKEN_INPUT.findall(root_of(html))
        assert token == form_data(page_queries(html), campaign.pk)["csrf_token"] != CSRF_TOKEN_PLACEHOLDER
        tokens.append(token)
    assert tokens[0] != tokens[1]


# POST: recorded ------------------------------------------------------------------------------


def test_a_filled_form_records_the_pledge_once_and_leads_to_its_receipt(campaign):
    response = open_and_post(browser("127.0.0.63"), campaign, FILLED)

    [pledge] = Pledge.objects.all()
    assert response.status_code == 303
    assert response["Location"] == f"/pledges/{pledge.code}"
    assert (pledge.name, pledge.email, pledge.phone, pledge.amount) == (
        "Achieng Odhiambo",
        "achieng@example.com",
        "+254712345678",
        5000,
    )
    assert pledge.user is None and not pledge.is_anonymous and pledge.channel == "web"
    assert Campaign.objects.get(pk=campaign.pk).pledged_total == 5000
    assert not Payment.objects.exists()  # a pledge is a promise: the ledger is untouched, as by the API


def test_the_receipt_page_carries_the_pledge_as_the_api_gives_it(renderer, campaign):
    client = browser("127.0.0.64")
    location = open_and_post(client, campaign, FILLED)["Location"]
    code = location.rsplit("/", 1)[1]

    response = client.get(location)

    assert response.status_code == 200
    assert response["Cache-Control"] == "private, no-store"
    receipt, pay_now = page_queries(response.content.decode())
    assert receipt == {"queryKey": ["pledges", "receipt", code], "data": client.get(f"/api/pledges/{code}").json()}
    assert pay_now["queryKey"] == ["pledges", "pay-now", code]  # its form (config/tests/test_pay_now_form.py)
    assert renderer.requests[-1]["path"] == location
    assert browser("127.0.0.64").get("/pledges/K7Q2M9X").status_code == 404


def test_a_signed_in_visitor_s_pledge_is_theirs_and_an_anonymous_one_stays_anonymous(campaign):
    user = UserFactory.create()
    client = browser("127.0.0.65")
    client.force_login(user)

    assert open_and_post(client, campaign, {**FILLED, "isAnonymous": "on"}).status_code == 303

    pledge = Pledge.objects.get()
    assert pledge.user == user and pledge.is_anonymous


def test_a_plan_chosen_with_the_pledge_is_recorded(campaign):
    first_due_on = timezone.localdate() + timedelta(days=1)
    fields = {
        **FILLED,
        "payInInstalments": "on",
        "instalment": "1,000",
        "frequency": "weekly",
        "firstDueOn": first_due_on.isoformat(),
    }

    assert open_and_post(browser("127.0.0.66"), campaign, fields).status_code == 303

    plan = Pledge.objects.get().plan
    assert plan is not None
    assert (plan.instalment, plan.frequency, plan.first_due_on) == (1000, "weekly", first_due_on)


# POST: refused -------------------------------------------------------------------------------


def test_an_empty_form_comes_back_with_the_spec_s_messages_and_records_nothing(renderer, campaign):
    response = open_and_post(browser("127.0.0.67"), campaign, {"name": "Achieng", "amount": "12.5"})

    assert response.status_code == 422
    assert response["Cache-Control"] == "private, no-store"
    html = response.content.decode()
    data = form_data(page_queries(html), campaign.pk)
    assert data["values"] == {
        "name": "Achieng",
        "email": "",
        "phone": "",
        "amount": "12.5",
        "instalment": "",
        "frequency": "",
        "firstDueOn": "",
        "isAnonymous": False,
        "payInInstalments": False,
    }
    assert data["error"] == {
        "detail": "Please fill in all required fields",
        "code": "invalid",
        "field_errors": {
            "email": "Email is required",
            "phone": "Phone number is required",
            "amount": "Please enter a whole amount from Ksh 1 to Ksh 1,000,000,000.",
        },
    }
    # Rendered for this visitor alone, their token put in where the placeholder is.
    assert form_data(renderer.requests[-1]["queries"], campaign.pk) == {**data, "csrf_token": CSRF_TOKEN_PLACEHOLDER}
    assert not Pledge.objects.exists()


def test_the_messages_are_the_api_s(campaign):
    fields = {**FILLED, "email": "not an address", "phone": "12345", "amount": "ten"}

    response = open_and_post(browser("127.0.0.68"), campaign, fields)

    api = Client(REMOTE_ADDR="127.0.0.69").post(
        "/api/pledges",
        {
            "campaign_id": campaign.pk,
            "name": FILLED["name"],
            "email": "not an address",
            "phone": "12345",
            "amount": 0.5,
        },
        content_type="application/json",
    )
    error = form_data(page_queries(response.content.decode()), campaign.pk)["error"]
    assert response.status_code == 422
    assert error["field_errors"] == api.json()["field_errors"]
    assert error["detail"] == api.json()["detail"] == "Please correct the errors below"


def test_a_plan_without_its_first_date_is_refused_under_that_field(campaign):
    fields = {**FILLED, "payInInstalments": "on", "instalment": "1000", "frequency": "monthly"}

    response = open_and_post(browser("127.0.0.70"), campaign, fields)

    error = form_data(page_queries(response.content.decode()), campaign.pk)["error"]
    assert response.status_code == 422
    assert error["field_errors"] == {"first_due_on": "Please choose when the first instalment falls due."}
    assert not Pledge.objects.exists()


def test_kiswahili_visitors_read_the_messages_in_kiswahili(campaign):
    client = Client(enforce_csrf_checks=True, REMOTE_ADDR="127.0.0.71", HTTP_ACCEPT_LANGUAGE="sw")

    response = open_and_post(client, campaign, {})

    error = form_data(page_queries(response.content.decode()), campaign.pk)["error"]
    assert response.status_code == 422
    assert '<html lang="sw">' in response.content.decode()
    assert error["detail"] != "Please fill in all required fields"


def test_a_form_without_its_csrf_token_is_refused(campaign):
    response = browser("127.0.0.72").post(f"/campaign/{campaign.pk}/pledge", FILLED)

    assert response.status_code == 403
    assert response.content.decode() == "Your session has expired. Please reload the page and try again."
    assert not Pledge.objects.exists()


def test_past_the_per_address_limit_no_challenge_lets_it_through(settings, campaign):
    settings.RATE_LIMIT_PLEDGE = (2, 600)
    client = browser("127.0.0.73")

    answers = [open_and_post(client, campaign, FILLED) for _ in range(3)]

    assert [answer.status_code for answer in answers] == [303, 303, 429]
    refused = answers[2]
    assert int(refused["Retry-After"]) > 0
    error = form_data(page_queries(refused.content.decode()), campaign.pk)["error"]
    assert error["code"] == "challenge_required" and error["detail"]
    assert form_data(page_queries(refused.content.decode()), campaign.pk)["values"]["name"] == FILLED["name"]
    assert Pledge.objects.count() == 2


def test_a_closed_campaign_refuses_with_the_spec_s_message(db):
    closed = CampaignFactory.create(status=CampaignStatus.CLOSED)

    response = open_and_post(browser("127.0.0.74"), closed, FILLED)

    assert response.status_code == 400
    error = form_data(page_queries(response.content.decode()), closed.pk)["error"]
    assert error["detail"] == "This campaign is closed and no longer accepts pledges."
    assert not Pledge.objects.exists()


@pytest.mark.parametrize("campaign_id", ["hidden", "999999", "1" * 30])
def test_a_hidden_or_missing_campaign_is_404(campaign, campaign_id):
    hidden = CampaignFactory.create(status=CampaignStatus.PENDING)
    path = f"/campaign/{hidden.pk if campaign_id == 'hidden' else campaign_id}/pledge"
    client = browser("127.0.0.75")
    page = client.get(f"/campaign/{campaign.pk}/pledge")  # a token from a page the visitor could open
    token = form_data(page_queries(page.content.decode()), campaign.pk)["csrf_token"]

    response = client.post(path, {"csrfmiddlewaretoken": token, **FILLED})

    assert response.status_code == 404
    assert without_style_nonce(response.content.decode()) == CAMPAIGN_INDEX_HTML
    assert not Pledge.objects.exists()


def test_sending_the_form_takes_the_api_s_queries(campaign, django_assert_num_queries):
    client = browser("127.0.0.76")
    token = form_data(page_queries(client.get(f"/campaign/{campaign.pk}/pledge").content.decode()), campaign.pk)

    with django_assert_num_queries(QUERIES):
        response = client.post(
            f"/campaign/{campaign.pk}/pledge", {"csrfmiddlewaretoken": token["csrf_token"], **FILLED}
        )
    with CaptureQueriesContext(connection) as api_queries:
        Client(REMOTE_ADDR="127.0.0.77").post(
            "/api/pledges", {"campaign_id": campaign.pk, **FILLED, "amount": 5000}, content_type="application/json"
        )

    assert response.status_code == 303
    assert len(api_queries) >= QUERIES
