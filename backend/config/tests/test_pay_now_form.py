"""Paying a pledge without JavaScript (config/pledge_form.py): the pledge's page offers the amount due in
a plain HTML form, and its POST sends the PIN prompt through the service the API uses; the simulator
plays Safaricom over HTTP."""

import pytest
from django.test import Client

from campaigns.tests.conftest import campaign
from config.tests.test_spa import CAMPAIGN_INDEX_HTML, page_queries
from payments.models import Payment
from payments.tests.support import providers, settled
from payments.tests.test_c2b import registered
from pledges.models import PledgePayment
from pledges.tests.test_paying_what_is_due import weekly_plan
from pledges.tests.test_reconciliation import make_pledge, paid

# The church's campaign with its paybill, and the simulators with our C2B URLs registered.
__all__ = ["campaign", "providers", "registered"]

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def built_frontend(settings, tmp_path):
    (tmp_path / "index.html").write_text(CAMPAIGN_INDEX_HTML, encoding="utf-8")
    settings.FRONTEND_DIST = tmp_path


@pytest.fixture
def code(visitor_client, campaign):
    """A pledge of 12,000 in weekly instalments of 4,000, the first due in three days."""
    return make_pledge(visitor_client, campaign, amount=12_000, plan=weekly_plan(4_000, first_due_in_days=3))["code"]


def browser(address: str) -> Client:
    """A browser without JavaScript from its own address, checking CSRF as in production."""
    return Client(enforce_csrf_checks=True, REMOTE_ADDR=address)


def pay_now_data(html: str, code: str) -> dict:
    [data] = [query["data"] for query in page_queries(html) if query["queryKey"] == ["pledges", "pay-now", code]]
    return data


def open_and_pay(client: Client, code: str, amount: str):
    """Open the pledge's page (its CSRF cookie, token and key), then send its 'Pay now' form."""
    form = pay_now_data(client.get(f"/pledges/{code}").content.decode(), code)
    return client.post(
        f"/pledges/{code}", {"csrfmiddlewaretoken": form["csrf_token"], "key": form["key"], "amount": amount}
    )


def test_the_pledge_s_page_carries_its_pay_now_form_for_this_visitor_alone(code):
    page = browser("127.0.0.71").get(f"/pledges/{code}")

    assert (page.status_code, page["Cache-Control"]) == (200, "private, no-store")
    form = pay_now_data(page.content.decode(), code)
    assert (len(form["csrf_token"]), len(form["key"])) == (64, 32)
    assert (form["amount"], form["error"], form["sent"]) == (None, None, False)
    receipt = [query["data"] for query in page_queries(page.content.decode()) if query["queryKey"][1] == "receipt"]
    assert receipt[0]["amount_due"] == 4_000  # what the form offers


def test_part_of_what_is_left_sends_a_prompt_for_that_amount_which_credits_it_once(registered, code):
    client = browser("127.0.0.72")
    form = pay_now_data(client.get(f"/pledges/{code}").content.decode(), code)
    fields = {"csrfmiddlewaretoken": form["csrf_token"], "key": form["key"], "amount": "2,500"}

    sent = client.post(f"/pledges/{code}", fields)
    client.post(f"/pledges/{code}", fields)  # the same form sent again (a reload): no second prompt

    assert sent.status_code == 200
    assert pay_now_data(sent.content.decode(), code) | {"csrf_token": "", "key": ""} == {
        "csrf_token": "",
        "key": "",
        "amount": "2,500",
        "error": None,
        "sent": True,
    }
    [payment] = Payment.objects.filter(account_reference=code)
    assert (payment.amount, settled(payment.reference).status) == (2_500, "succeeded")
    pledge = paid(code, 2_500)
    assert (pledge.status, PledgePayment.objects.filter(pledge=pledge).count()) == ("partly_paid", 1)


def test_an_empty_amount_sends_a_prompt_for_the_amount_due(registered, code):
    answer = open_and_pay(browser("127.0.0.73"), code, "")

    assert answer.status_code == 200
    assert Payment.objects.get(account_reference=code).amount == 4_000


@pytest.mark.parametrize("amount", ["12,001", "0", "a lot", "100.50"])
def test_more_than_what_is_left_or_not_an_amount_is_refused_on_the_page_and_sends_nothing(code, amount):
    answer = open_and_pay(browser("127.0.0.74"), code, amount)

    assert answer.status_code == 422  # as the API answers it
    form = pay_now_data(answer.content.decode(), code)
    assert (form["amount"], form["sent"]) == (amount, False)
    assert form["error"]["field_errors"] == {"amount": "Please enter an amount from Ksh 1 to Ksh 12,000."}
    assert not Payment.objects.filter(account_reference=code).exists()


def test_the_refusal_is_in_kiswahili_for_a_kiswahili_page(code):
    client = browser("127.0.0.75")
    client.cookies["django_language"] = "sw"

    answer = open_and_pay(client, code, "20000")

    assert pay_now_data(answer.content.decode(), code)["error"]["field_errors"]["amount"].startswith("Tafadhali")


def test_a_form_without_its_csrf_token_is_refused_and_sends_nothing(code):
    answer = browser("127.0.0.76").post(f"/pledges/{code}", {"amount": "1000"})

    assert answer.status_code == 403
    assert not Payment.objects.filter(account_reference=code).exists()


def test_an_unknown_code_is_not_found(code):
    client = browser("127.0.0.77")
    form = pay_now_data(client.get(f"/pledges/{code}").content.decode(), code)

    answer = client.post("/pledges/ABCDEFG", {"csrfmiddlewaretoken": form["csrf_token"], "amount": "100"})

    assert answer.status_code == 404


def test_a_pledger_without_a_plan_is_offered_all_that_is_left_and_may_pay_part(registered, visitor_client, campaign):
    code = make_pledge(visitor_client, campaign, amount=12_000)["code"]
    client = browser("127.0.0.78")
    page = client.get(f"/pledges/{code}").content.decode()
    [receipt] = [query["data"] for query in page_queries(page) if query["queryKey"] == ["pledges", "receipt", code]]
    form = pay_now_data(page, code)

    answer = client.post(
        f"/pledges/{code}", {"csrfmiddlewaretoken": form["csrf_token"], "key": form["key"], "amount": "3000"}
    )

    assert receipt["amount_due"] == 12_000
    assert (answer.status_code, pay_now_data(answer.content.decode(), code)["sent"]) == (200, True)
    assert paid(code, 3_000).status == "partly_paid"
