"""Two instances behind one balancer behave as one site: nothing either holds in its own memory."""

import io
import os
import re
import secrets
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import httpx
from django.conf import settings
from django.core.management import call_command
from PIL import Image

from accounts.models import User
from accounts.tests.factories import DEFAULT_PASSWORD, UserFactory
from campaigns.tests.factories import CampaignFactory
from collection_accounts.tests.factories import TEST_PAYBILL
from notifications.models import NotificationLog, Reminder
from payments.models import Payment, PaymentEvent
from pledges.models import Pledge
from scale_tests.conftest import Browser, Stack
from simulators.daraja import stk_callback_body
from simulators.models import SimulatedStkRequest

BACKEND_DIR = Path(__file__).resolve().parent.parent
NAIROBI = ZoneInfo("Africa/Nairobi")


def wait_for(condition: Callable[[], object], *, seconds: float = 30, what: str = "") -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"Timed out waiting for {what}"
        time.sleep(0.2)


def new_organizer() -> User:
    return UserFactory.create(email=f"organizer-{uuid.uuid4().hex[:8]}@example.com")


def pledge_through(visitor: Browser, base_url: str, campaign_id: int, amount: int = 700) -> Pledge:
    visitor.get(f"{base_url}/api/auth/session")
    response = visitor.post(
        f"{base_url}/api/pledges",
        json={
            "campaign_id": campaign_id,
            "amount": amount,
            "name": "Wanjiru Kamau",
            "email": f"pledger-{uuid.uuid4().hex[:8]}@example.com",
            # Prompts are limited per phone, across runs too: a number of its own (ending 5678: it pays).
            "phone": f"07{secrets.randbelow(10**4):04d}5678",
        },
    )
    assert response.status_code == 201, response.text
    return Pledge.objects.get(code=response.json()["code"])


def test_a_visitor_signed_in_on_one_instance_is_signed_in_on_the_other(
    stack: Stack, browser: Callable[[], Browser]
) -> None:
    organizer = new_organizer()
    visitor = browser()

    assert visitor.sign_in(stack.a, organizer.email, DEFAULT_PASSWORD).status_code == 200

    assert visitor.signed_in_as(stack.b) == organizer.email
    # Round robin through the balancer: both instances answer, both know the session.
    assert {visitor.signed_in_as(stack.nginx) for _ in range(4)} == {organizer.email}
    assert stack.upstreams_that_answered("/api/auth/session") == {
        stack.a.removeprefix("http://"),
        stack.b.removeprefix("http://"),
    }

    assert visitor.post(f"{stack.b}/api/auth/signout").status_code == 200
    assert visitor.signed_in_as(stack.a) is None


def test_the_sign_in_limit_counts_failures_on_every_instance(stack: Stack, browser: Callable[[], Browser]) -> None:
    attempts, _window = settings.RATE_LIMIT_SIGN_IN
    visitor = browser()
    visitor.get(f"{stack.a}/api/auth/session")
    wrong = {"email": f"nobody-{uuid.uuid4().hex[:8]}@example.com", "password": "not-the-password"}

    for attempt in range(attempts):
        instance = (stack.a, stack.b)[attempt % 2]
        response = visitor.post(f"{instance}/api/auth/signin", json=wrong)
        assert response.status_code != 429, f"limited after {attempt} failures"

    for instance in (stack.a, stack.b, stack.nginx, stack.nginx):
        assert visitor.post(f"{instance}/api/auth/signin", json=wrong).status_code == 429


def test_an_e_mail_asked_for_on_one_instance_is_sent_by_a_worker(stack: Stack, browser: Callable[[], Browser]) -> None:
    organizer = new_organizer()
    visitor = browser()
    visitor.get(f"{stack.b}/api/auth/session")

    asked = visitor.post(f"{stack.b}/api/auth/password-reset", json={"email": organizer.email})
    assert asked.status_code == 202, asked.text

    sent = NotificationLog.objects.filter(recipient=organizer.email, status=NotificationLog.Status.SENT)
    wait_for(sent.exists, what="the password-reset e-mail")


def test_a_cover_uploaded_through_one_instance_is_served_to_a_visitor_of_the_other(
    stack: Stack, browser: Callable[[], Browser]
) -> None:
    organizer = new_organizer()
    campaign = CampaignFactory.create(organizer=organizer)
    picture = io.BytesIO()
    Image.new("RGB", (64, 48), (200, 30, 30)).save(picture, "PNG")
    uploader = browser()
    uploader.sign_in(stack.a, organizer.email, DEFAULT_PASSWORD)

    upload = uploader.post(f"{stack.a}/api/media", files={"file": ("cover.png", picture.getvalue(), "image/png")})
    assert upload.status_code == 201, upload.text
    cover_url = upload.json()["url"]
    assert cover_url.startswith(os.environ["AWS_S3_ENDPOINT_URL"]), "stored in the bucket, not on A's disk"
    changed = uploader.patch(f"{stack.a}/api/campaigns/{campaign.pk}", json={"image_url": cover_url})
    assert changed.status_code == 200, changed.text

    page = browser().get(f"{stack.b}/api/campaigns/{campaign.pk}").raise_for_status().json()
    assert page["image_url"] == cover_url
    cover = httpx.get(page["image_url"])
    assert cover.status_code == 200
    assert Image.open(io.BytesIO(cover.content)).size == (64, 48)


def test_a_pledge_reminder_due_once_is_sent_once_with_two_schedulers_and_two_workers(
    stack: Stack, browser: Callable[[], Browser]
) -> None:
    campaign = CampaignFactory.create(end_date=datetime.now(NAIROBI).date() + timedelta(days=30))
    pledge = pledge_through(browser(), stack.nginx, campaign.pk)
    # A week and an hour after pledging, at midday: the 7-day reminder is due.
    moment = datetime.now(NAIROBI).replace(hour=12, minute=0, second=0, microsecond=0)
    Pledge.objects.filter(pk=pledge.pk).update(created_at=moment - timedelta(days=7, hours=1))

    schedulers = [
        subprocess.Popen(  # noqa: S603 - our own command line
            [sys.executable, "manage.py", "send_due_reminders", "--now", moment.isoformat()],
            cwd=BACKEND_DIR,
            stdout=subprocess.DEVNULL,
        )
        for _ in range(2)
    ]
    assert [scheduler.wait(timeout=60) for scheduler in schedulers] == [0, 0]

    reminders = Reminder.objects.filter(pledge=pledge)
    sent = NotificationLog.objects.filter(pledge=pledge, template__endswith="/reminder")
    wait_for(lambda: reminders.filter(status=Reminder.Status.SENT).exists(), what="the reminder to be sent")
    time.sleep(2)  # room for a second copy, were one queued
    assert reminders.count() == 1
    assert sorted(sent.values_list("channel", flat=True)) == ["email", "sms"]


def test_an_stk_push_started_on_one_instance_and_called_back_on_the_other_credits_once(
    stack: Stack, browser: Callable[[], Browser]
) -> None:
    # Prompts go to the church's own connected paybill (a campaign without one takes no prompts).
    campaign = CampaignFactory.create(paybill=TEST_PAYBILL)
    pledger = browser()
    pledge = pledge_through(pledger, stack.a, campaign.pk, amount=900)
    key = uuid.uuid4().hex

    started = pledger.post(f"{stack.a}/api/pledges/{pledge.code}/stk-push", json={"idempotency_key": key})
    assert started.status_code == 201, started.text
    reference = started.json()["reference"]
    # The same tap again, answered by the other instance: the same payment, no second prompt.
    again = pledger.post(f"{stack.b}/api/pledges/{pledge.code}/stk-push", json={"idempotency_key": key})
    assert again.json()["reference"] == reference

    # The donor's page polls through the balancer until M-Pesa's callback (sent to B) lands.
    wait_for(
        lambda: pledger.get(f"{stack.nginx}/api/payments/{reference}").json()["status"] == "succeeded",
        what="the payment to succeed",
    )
    payment = Payment.objects.get(reference=reference)
    prompt = SimulatedStkRequest.objects.get(checkout_request_id=payment.checkout_request_id)
    assert prompt.callback_url.startswith(stack.b)
    # Safaricom retries callbacks: the same one again, on A this time.
    replay = httpx.post(prompt.callback_url.replace(stack.b, stack.a, 1), json=stk_callback_body(prompt))
    assert replay.status_code == 200

    pledge.refresh_from_db()
    assert pledge.paid_amount == 900
    assert list(Payment.objects.filter(mpesa_receipt=prompt.mpesa_receipt).values_list("reference", flat=True)) == [
        reference
    ]
    assert SimulatedStkRequest.objects.filter(account_reference=pledge.code).count() == 1


def test_a_paybill_confirmation_on_one_instance_and_a_pull_on_the_other_credit_once(
    stack: Stack, browser: Callable[[], Browser]
) -> None:
    # A church with its own connected paybill (not the STK test's), registered with the Daraja
    # simulator as Connect would: its confirmation URL on B (MPESA_CALLBACK_BASE_URL), and Pull.
    campaign = CampaignFactory.create(paybill="600200")
    call_command("simulators_load_demo")
    account = campaign.account_links.get().account
    pledger = browser()
    pledge = pledge_through(pledger, stack.a, campaign.pk, amount=800)
    treasurer = browser()
    assert treasurer.sign_in(stack.a, campaign.organizer.email, DEFAULT_PASSWORD).status_code == 200
    pull_url = f"{stack.a}/api/orgs/{account.organization_id}/collection-accounts/{account.pk}/mpesa/pull"

    # The pledger pays the paybill with the pledge code; Safaricom's confirmation is on its way to B
    # while the treasurer's Pull on A already lists the payment.
    paid = httpx.post(
        f"{stack.b}/simulators/daraja/c2b/simulate",
        json={"ShortCode": "600200", "BillRefNumber": pledge.code, "Amount": 800, "MSISDN": "254708374149"},
    )
    assert paid.status_code == 200, paid.text
    receipt = paid.json()["TransID"]
    first_pull = treasurer.post(pull_url)
    assert first_pull.status_code == 200, first_pull.text
    confirmations = PaymentEvent.objects.filter(kind=PaymentEvent.Kind.C2B_CONFIRMATION, body__TransID=receipt)
    wait_for(confirmations.exists, what="the confirmation to reach B")
    # Pull again, as the scheduler does every ten minutes: the payment is known by its receipt.
    second_pull = treasurer.post(pull_url)
    assert second_pull.status_code == 200, second_pull.text

    assert first_pull.json()["credited"] + second_pull.json()["credited"] <= 1
    assert second_pull.json()["credited"] == 0
    pledge.refresh_from_db()
    assert pledge.paid_amount == 800
    assert Payment.objects.filter(mpesa_receipt=receipt).count() == 1
    assert Payment.objects.get(mpesa_receipt=receipt).collection_account_id == account.pk


def test_the_balancer_caches_only_what_the_app_marks_and_never_for_a_signed_in_visitor(
    stack: Stack, browser: Callable[[], Browser]
) -> None:
    campaign = CampaignFactory.create()
    url = f"{stack.nginx}/api/campaigns/{campaign.pk}"

    first, second = httpx.get(url), httpx.get(url)
    cache_control = first.headers.get("Cache-Control", "")
    marked = "s-maxage=" in cache_control and "private" not in cache_control
    assert second.headers["X-Cache-Status"] == ("HIT" if marked else "MISS")

    signed_in = httpx.get(url, cookies={"sessionid": "anything"})
    assert signed_in.headers["X-Cache-Status"] == "BYPASS"


def feed_keys(answer: httpx.Response) -> list[str]:
    return [entry["key"] for entry in answer.raise_for_status().json()["entries"]]


def test_an_entry_made_on_one_instance_appears_on_the_big_screens_the_other_and_the_balancer_serve(
    stack: Stack, browser: Callable[[], Browser]
) -> None:
    campaign = CampaignFactory.create(organizer=new_organizer())
    screen = browser()
    live = f"/api/campaigns/{campaign.pk}/live"
    shown = screen.get(f"{stack.b}{live}")  # a screen served by instance B
    assert shown.status_code == 200 and feed_keys(shown) == []
    assert screen.get(f"{stack.b}{live}", headers={"If-None-Match": shown.headers["ETag"]}).status_code == 304
    assert screen.get(f"{stack.nginx}{live}").status_code == 200  # and the hall's screens, through nginx

    pledge = pledge_through(browser(), stack.a, campaign.pk, amount=1_234)  # made on instance A
    entry = f"pledge-{pledge.pk}"

    # B knows at once that its screen is out of date (the version token is shared, not B's memory).
    changed = screen.get(f"{stack.b}{live}", headers={"If-None-Match": shown.headers["ETag"]})
    assert changed.status_code == 200 and feed_keys(changed) == [entry]
    # Through the balancer as deployed, within the 2 s in which an entry must reach every screen.
    wait_for(lambda: entry in feed_keys(screen.get(f"{stack.nginx}{live}")), seconds=2, what="the entry via nginx")


def page_root(html: str) -> str:
    found = re.search(r'<div id="root">(.*?)</div><script type="application/json" id="page-queries">', html, re.DOTALL)
    assert found is not None
    return found[1]


def test_a_campaign_page_rendered_on_one_instance_is_served_by_the_other_and_a_renderer_down_still_serves_it(
    stack: Stack,
) -> None:
    campaign = CampaignFactory.create(organizer=new_organizer(), title=f"Roof {uuid.uuid4().hex[:6]}")
    page = f"/campaign/{campaign.pk}"

    rendered = page_root(httpx.get(f"{stack.a}{page}").raise_for_status().text)
    assert f">{campaign.title}</h1>" in rendered  # the app's markup, from A's renderer

    # B's renderer stops: B serves A's render from the shared cache...
    os.kill(int(os.environ["SCALE_B_RENDERER_PID"]), signal.SIGTERM)
    wait_for(
        lambda: not answers(f"{os.environ['SCALE_B_RENDERER_URL']}/healthz"), seconds=5, what="B's renderer to stop"
    )
    assert page_root(httpx.get(f"{stack.b}{page}").raise_for_status().text) == rendered

    # ...and a page it cannot render anew still answers 200, with the data for the browser to render.
    campaign.title = f"{campaign.title} and Walls"
    campaign.save()
    unrendered = httpx.get(f"{stack.b}{page}")
    assert unrendered.status_code == 200
    assert page_root(unrendered.text) == ""
    assert f'"title": "{campaign.title}"' in unrendered.text


def answers(url: str) -> bool:
    try:
        httpx.get(url, timeout=1)
    except httpx.TransportError:
        return False
    return True


def test_readiness_through_the_balancer(stack: Stack) -> None:
    assert httpx.get(f"{stack.nginx}/readyz").json() == {
        "status": "ok",
        "checks": {"database": "ok", "cache": "ok"},
    }


def test_a_ussd_session_whose_steps_alternate_between_the_instances_pledges_once(stack: Stack) -> None:
    campaign = CampaignFactory.create()
    session_id = f"ATUid_scale_{uuid.uuid4().hex}"
    # Pledges are limited per number, across runs too: a number of its own.
    phone = f"+2547{secrets.randbelow(10**4):04d}1235"
    # Pledge, the campaign, the amount, all at once (no instalments), shown publicly, confirmed.
    answers = ["1", str(campaign.pk), "600", "1", "1", "1"]

    def step(base_url: str, text: str) -> str:
        response = httpx.post(
            f"{base_url}/api/ussd/callback/{settings.AFRICASTALKING_CALLBACK_TOKEN}",
            data={"sessionId": session_id, "serviceCode": "*384*4242#", "phoneNumber": phone, "text": text},
        )
        assert response.status_code == 200, response.text
        return response.text

    screens = [step((stack.a, stack.b)[n % 2], "*".join(answers[:n])) for n in range(len(answers) + 1)]

    assert screens[0].startswith("CON Harambee") and screens[-1].startswith("END Thank you!")
    # The gateway retries the last step, on the other instance: the same answer, no second pledge.
    assert step(stack.a, "*".join(answers)) == screens[-1]
    assert list(Pledge.objects.filter(phone=phone).values_list("amount", flat=True)) == [600]
