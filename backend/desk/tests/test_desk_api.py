"""The ushers' desk through HTTP: entries once per key, gifts once per M-Pesa receipt, desk passcodes."""

import uuid
from datetime import timedelta

import pytest
from django.test import override_settings
from django.utils import timezone

from audit.models import AuditAction, AuditEntry
from campaigns.models import Campaign
from campaigns.tests.factories import CampaignFactory
from desk import services as desk_services
from desk.models import DeskEntry
from events.tests.factories import open_event
from notifications.messages import desk_gift_receipt_notify
from notifications.models import NotificationLog
from organizations.models import Membership
from organizations.roles import Role
from payments.models import Payment
from payments.services import payment_reverse
from pledges.models import Donation, InstalmentPlan, Pledge
from pledges.tests.factories import make_pledge
from pledges.tests.test_management import pay_bill

pytestmark = pytest.mark.django_db

# Messages go out once the entry is committed: the tests that read them commit for real.
committing = pytest.mark.django_db(transaction=True)


@pytest.fixture
def event(campaign):
    return open_event(campaign)


@pytest.fixture
def usher(campaign, make_api_client):
    return member_client(campaign, make_api_client, Role.USHER)


def member_client(campaign, make_api_client, role):
    from accounts.tests.factories import UserFactory

    member = UserFactory.create()
    Membership.objects.create(organization=campaign.organization, user=member, role=role)
    return make_api_client(signed_in_as=member)


def entry(client, event, *, key=None, kind="pledge", amount=5_000, phone="0712345678", address="127.0.0.1", **fields):
    body = {"idempotency_key": key or uuid.uuid4().hex, "kind": kind, "amount": amount, "phone": phone, **fields}
    return client.post(f"/api/events/{event.pk}/desk-entries", body, REMOTE_ADDR=address)


def figures(campaign):
    campaign = Campaign.objects.get(pk=campaign.pk)
    return {"pledged": campaign.pledged_total, "raised": campaign.raised_total, "donors": campaign.donor_count}


def passcode_client(organizer_client, make_api_client, event, volunteer="Mary Wambui"):
    issued = organizer_client.post(f"/api/events/{event.pk}/desk-passcodes", {"volunteer": volunteer})
    assert issued.status_code == 201, issued.content
    client = make_api_client()
    signed_in = client.post("/api/desk/sign-in", {"passcode": issued.json()["passcode"].lower()})
    assert signed_in.status_code == 200, signed_in.content
    return client


@committing
def test_a_pledge_card_is_recorded_once_however_often_it_is_sent_and_its_pledger_gets_the_sms(usher, campaign, event):
    key = uuid.uuid4().hex

    first = entry(usher, event, key=key, name="Wanjiru Kamau", amount=20_000)
    again = entry(usher, event, key=key, name="Wanjiru Kamau", amount=20_000)
    changed_retry = entry(usher, event, key=key, amount=1)

    assert (first.status_code, again.status_code, changed_retry.status_code) == (201, 200, 200)
    assert first.json() == again.json() == changed_retry.json()
    pledge = Pledge.objects.get()
    assert (pledge.name, pledge.amount, pledge.phone, pledge.email, pledge.user, pledge.channel) == (
        "Wanjiru Kamau",
        20_000,
        "+254712345678",
        "",
        None,
        "desk",
    )
    assert first.json()["pledge_code"] == pledge.code
    assert figures(campaign)["pledged"] == 20_000
    sms = NotificationLog.objects.filter(pledge=pledge, channel="sms")
    assert sms.count() == 1
    assert pledge.code in sms.get().body


def test_a_pledge_card_needs_a_phone_and_bad_input_changes_nothing(usher, campaign, event):
    no_phone = entry(usher, event, phone="")
    bad_phone = entry(usher, event, phone="12345")
    no_key = entry(usher, event, key="short")
    not_a_key = entry(usher, event, key="key\x00with a NUL")

    assert no_phone.status_code == bad_phone.status_code == no_key.status_code == not_a_key.status_code == 422
    assert no_phone.json()["field_errors"] == {"phone": "Phone number is required"}
    assert "phone" in bad_phone.json()["field_errors"]
    assert not Pledge.objects.exists()
    assert not DeskEntry.objects.exists()


def plan(first_due_on=None, instalment=2_000, frequency="weekly"):
    first_due_on = first_due_on or timezone.localdate() + timedelta(days=1)
    return {"instalment": instalment, "frequency": frequency, "first_due_on": first_due_on.isoformat()}


def test_a_pledge_card_may_carry_an_instalment_plan_saved_with_the_pledge(
    usher, campaign, event, django_assert_max_num_queries
):
    first_due_on = timezone.localdate() + timedelta(days=3)

    with django_assert_max_num_queries(16):
        answer = entry(usher, event, amount=5_000, plan=plan(first_due_on))

    assert answer.status_code == 201, answer.content
    pledge = Pledge.objects.get()
    saved = InstalmentPlan.objects.get(pledge=pledge)
    assert (saved.instalment, saved.frequency, saved.first_due_on, saved.set_by) == (
        2_000,
        "weekly",
        first_due_on,
        None,
    )
    assert [part.amount for part in saved.schedule()] == [2_000, 2_000, 1_000]


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"plan": plan(instalment=6_000)}, "Please enter a whole amount from Ksh 1 to the pledge's Ksh 5,000."),
        (
            {"plan": plan(timezone.localdate() - timedelta(days=1))},
            "The first instalment cannot fall due in the past.",
        ),
        ({"plan": plan(instalment=100)}, "The plan must end by"),
        ({"kind": "cash", "plan": plan()}, "Only a pledge card is paid in instalments."),
    ],
)
def test_a_plan_the_web_would_refuse_is_refused_at_the_desk_and_changes_nothing(usher, event, fields, message):
    answer = entry(usher, event, amount=5_000, **fields)

    assert answer.status_code == 422, answer.content
    assert answer.json()["detail"].startswith(message)
    assert not Pledge.objects.exists()
    assert not Donation.objects.exists()
    assert not DeskEntry.objects.exists()


def test_a_cash_gift_is_a_donation_counted_at_once_and_on_the_big_screen(usher, visitor_client, campaign, event):
    answer = entry(usher, event, kind="cash", amount=1_500, phone="", name="Otieno")

    assert answer.status_code == 201, answer.content
    donation = Donation.objects.get()
    assert (donation.amount, donation.name, donation.payment.provider, donation.counted_at is not None) == (
        1_500,
        "Otieno",
        "cash",
        True,
    )
    assert donation.payment.recorded_by == DeskEntry.objects.get().usher
    assert figures(campaign)["raised"] == 1_500
    assert AuditEntry.objects.filter(action=AuditAction.PAYMENT_RECORDED, object_id=str(donation.payment_id)).exists()
    screen = visitor_client.get(f"/api/campaigns/{campaign.pk}/live").json()
    assert [(e["kind"], e["name"], e["amount"]) for e in screen["entries"]] == [("gift", "Otieno", 1_500)]


def test_an_mpesa_gift_and_its_later_confirmation_credit_once(usher, campaign, event):
    answer = entry(usher, event, kind="mpesa", amount=2_000, phone="", mpesa_receipt="slk4h7r2qx")
    assert answer.status_code == 201, answer.content

    pay_bill("HARAMBEE", 2_000, "SLK4H7R2QX")

    assert Payment.objects.filter(mpesa_receipt="SLK4H7R2QX").count() == 1
    assert Donation.objects.get().amount == 2_000
    assert figures(campaign) == {"pledged": 0, "raised": 2_000, "donors": 1}
    assert answer.json()["already_in_books"] is False


def test_a_confirmation_that_came_first_becomes_the_gift_once(usher, campaign, event):
    pay_bill("HARAMBEE", 2_000, "SLK4H7R2QX")

    wrong_amount = entry(usher, event, kind="mpesa", amount=200, phone="", mpesa_receipt="SLK4H7R2QX")
    first = entry(usher, event, kind="mpesa", amount=2_000, phone="", mpesa_receipt="SLK4H7R2QX")
    second_usher = entry(usher, event, kind="mpesa", amount=2_000, phone="", mpesa_receipt="SLK4H7R2QX")

    assert wrong_amount.status_code == 422
    assert wrong_amount.json()["field_errors"] == {"amount": "M-Pesa says this receipt was for Ksh 2,000."}
    assert (first.status_code, first.json()["already_in_books"]) == (201, True)
    assert (second_usher.status_code, second_usher.json()["already_in_books"]) == (201, True)
    assert Payment.objects.count() == 1
    assert Donation.objects.get().payment.purpose == "donation"
    assert figures(campaign) == {"pledged": 0, "raised": 2_000, "donors": 1}


def test_an_mpesa_gift_already_paying_a_pledge_is_not_credited_again(usher, campaign, event):
    pledge = make_pledge(campaign, amount=10_000)
    pay_bill(pledge.code, 2_000, "SLK4H7R2QX")

    answer = entry(usher, event, kind="mpesa", amount=2_000, phone="", mpesa_receipt="SLK4H7R2QX")

    assert (answer.status_code, answer.json()["already_in_books"]) == (201, True)
    assert not Donation.objects.exists()
    assert Pledge.objects.get(pk=pledge.pk).paid_amount == 2_000
    assert figures(campaign)["raised"] == 2_000


def test_an_mpesa_receipt_reversed_in_the_books_may_be_entered_again_and_counts_once(usher, organizer, campaign, event):
    first = entry(usher, event, kind="mpesa", amount=2_000, phone="", mpesa_receipt="SLK4H7R2QX")
    payment_reverse(reference=Payment.objects.get().reference, user=organizer, reason="Typed in error")

    again = entry(usher, event, kind="mpesa", amount=2_000, phone="", mpesa_receipt="SLK4H7R2QX")

    assert (first.status_code, again.status_code) == (201, 201)
    assert again.json()["already_in_books"] is False
    assert Payment.objects.filter(mpesa_receipt="SLK4H7R2QX", reversed_at__isnull=True).count() == 1
    assert figures(campaign) == {"pledged": 0, "raised": 2_000, "donors": 1}


def test_a_passcode_adds_entries_to_its_event_and_can_do_nothing_else(
    organizer_client, make_api_client, campaign, event
):
    volunteer = passcode_client(organizer_client, make_api_client, event)
    other_campaign = CampaignFactory.create(organizer=campaign.organizer)
    other_event = open_event(other_campaign)

    added = entry(volunteer, event, name="Akinyi")
    desk = volunteer.get(f"/api/campaigns/{campaign.pk}/desk")
    elsewhere = entry(volunteer, other_event)
    other_desk = volunteer.get(f"/api/campaigns/{other_campaign.pk}/desk")
    forbidden = [
        volunteer.post(f"/api/events/{event.pk}/close"),
        volunteer.post(f"/api/events/{event.pk}/desk-passcodes", {"volunteer": "Another"}),
        volunteer.post(f"/api/campaigns/{campaign.pk}/live/hidden", {"kind": "pledge", "id": 1}),
        volunteer.get("/api/pledges/export.csv", {"campaign_id": campaign.pk}),
        volunteer.get(f"/api/campaigns/{campaign.pk}/events"),
        volunteer.get("/api/profile"),
    ]

    assert added.status_code == 201, added.content
    assert (desk.status_code, desk.json()["usher_name"], desk.json()["entries_count"]) == (200, "Mary Wambui", 1)
    assert DeskEntry.objects.get().usher_name == "Mary Wambui"
    assert desk.json()["usher_key"] == f"passcode-{DeskEntry.objects.get().passcode_id}"
    assert (elsewhere.status_code, elsewhere.json()["code"]) == (403, "passcode_other_event")
    assert other_desk.status_code == 403
    assert [answer.status_code for answer in forbidden] == [401] * len(forbidden)
    assert volunteer.get("/api/auth/session").json()["user"] is None


def test_a_passcode_stops_working_at_the_close(organizer_client, make_api_client, campaign, event):
    volunteer = passcode_client(organizer_client, make_api_client, event)
    issued = organizer_client.post(f"/api/events/{event.pk}/desk-passcodes", {"volunteer": "Late"}).json()
    assert entry(volunteer, event).status_code == 201

    organizer_client.post(f"/api/events/{event.pk}/close")
    after = entry(volunteer, event)
    late_sign_in = make_api_client().post("/api/desk/sign-in", {"passcode": issued["passcode"]})

    assert (after.status_code, after.json()["code"]) == (403, "passcode_expired")
    assert late_sign_in.status_code == 422
    assert DeskEntry.objects.count() == 1


def test_an_usher_delivers_entries_kept_offline_after_the_close(usher, organizer_client, event):
    organizer_client.post(f"/api/events/{event.pk}/close")

    assert entry(usher, event).status_code == 201


def test_the_desk_is_for_the_team_that_records_and_for_an_opened_event(make_api_client, campaign, event):
    viewer = member_client(campaign, make_api_client, Role.VIEWER)
    treasurer = member_client(campaign, make_api_client, Role.TREASURER)
    scheduled = open_event(CampaignFactory.create(organizer=campaign.organizer))
    scheduled.opened_at = None
    scheduled.save()

    assert entry(viewer, event).status_code == 403
    assert entry(make_api_client(), event).status_code == 401
    assert entry(treasurer, event).status_code == 201
    assert entry(treasurer, scheduled).json()["code"] == "event_not_open"


def test_a_key_sent_by_another_usher_is_refused(usher, make_api_client, campaign, event):
    key = uuid.uuid4().hex
    entry(usher, event, key=key)

    other = entry(member_client(campaign, make_api_client, Role.USHER), event, key=key)

    assert (other.status_code, other.json()["code"]) == (400, "key_used")


@override_settings(RATE_LIMIT_DESK_ENTRY=(3, 600))
def test_entries_are_limited_per_usher_never_per_address(make_api_client, campaign, event):
    first, second = (member_client(campaign, make_api_client, Role.USHER) for _ in range(2))
    # Both desks behind the hall's one address.
    answers = [entry(first, event, phone=f"07123456{n:02}", address="127.0.0.32").status_code for n in range(4)]
    other = entry(second, event, phone="0712345699", address="127.0.0.32").status_code

    assert answers == [201, 201, 201, 429]
    assert other == 201


def test_the_desk_counts_each_ushers_own_entries_and_names_who_is_at_it(
    usher, organizer_client, organizer, campaign, event
):
    for amount in (1_000, 2_000):
        entry(usher, event, amount=amount, phone=f"07{amount:08}")
    entry(organizer_client, event, kind="cash", amount=500, phone="")

    mine = usher.get(f"/api/campaigns/{campaign.pk}/desk").json()
    owners = organizer_client.get(f"/api/campaigns/{campaign.pk}/desk").json()

    assert (mine["entries_count"], mine["entries_total"], mine["event"]["id"]) == (2, 3_000, event.pk)
    assert [e["amount"] for e in mine["recent"]] == [2_000, 1_000]
    assert (owners["entries_count"], owners["entries_total"]) == (1, 500)
    assert (owners["usher_key"], mine["usher_key"] != owners["usher_key"]) == (f"user-{organizer.pk}", True)
    assert timezone.now() >= event.opened_at


def test_a_deleted_account_leaves_its_entries_counted_without_its_name(make_api_client, campaign, event):
    from accounts.tests.factories import DEFAULT_PASSWORD

    usher_client = member_client(campaign, make_api_client, Role.USHER)
    entry(usher_client, event, kind="cash", amount=700, phone="")

    assert usher_client.post("/api/profile/delete", {"password": DEFAULT_PASSWORD}).status_code == 200

    kept = DeskEntry.objects.get()
    assert (kept.usher_name, kept.amount) == ("Deleted user", 700)
    assert Donation.objects.get().amount == 700


@override_settings(RATE_LIMIT_DESK_PASSCODE=(3, 600))
def test_only_wrong_passcodes_count_against_the_halls_address(organizer_client, make_api_client, event):
    codes = [
        organizer_client.post(f"/api/events/{event.pk}/desk-passcodes", {"volunteer": f"Volunteer {n}"}).json()
        for n in range(5)
    ]

    def sign_in(passcode):
        # Every volunteer behind the hall's one Wi-Fi address.
        return make_api_client().post("/api/desk/sign-in", {"passcode": passcode}, REMOTE_ADDR="127.0.0.33")

    volunteers = [sign_in(issued["passcode"]).status_code for issued in codes]
    guesses = [sign_in("WRONG123").status_code for _ in range(4)]
    after_the_guesses = sign_in(codes[0]["passcode"])

    assert volunteers == [200] * 5
    assert guesses == [422, 422, 422, 429]
    assert (after_the_guesses.status_code, after_the_guesses.json()["code"]) == (429, "rate_limited")


def receipts(phone="+254712345678"):
    return NotificationLog.objects.filter(template="sms/gift_receipt", recipient=phone)


@committing
def test_a_cash_gift_with_a_phone_gets_one_receipt_sms_in_the_desks_language(sms_gateway, usher, campaign, event):
    key = uuid.uuid4().hex
    body = {"idempotency_key": key, "kind": "cash", "amount": 2_000, "phone": "0712345678", "name": "Otieno"}

    first = usher.post(f"/api/events/{event.pk}/desk-entries", body, HTTP_ACCEPT_LANGUAGE="sw")
    again = usher.post(f"/api/events/{event.pk}/desk-entries", body, HTTP_ACCEPT_LANGUAGE="sw")
    without_phone = entry(usher, event, kind="cash", amount=300, phone="")
    # The receipt's task run a second time (a worker retried it) finds it sent.
    desk_gift_receipt_notify(donation_id=Donation.objects.get(name="Otieno").pk)

    assert (first.status_code, again.status_code, without_phone.status_code) == (201, 200, 201)
    [receipt] = receipts()
    payment = Donation.objects.get(name="Otieno").payment
    assert receipt.payment == payment
    assert receipt.status == NotificationLog.Status.SENT
    assert receipt.body == (
        f"Asante! Tumepokea Ksh 2,000 taslimu mezani kwa {campaign.title}. Risiti {payment.receipt_number}."
    )
    assert "Otieno" not in receipt.body
    assert NotificationLog.objects.filter(template="sms/gift_receipt").count() == 1


@committing
def test_an_mpesa_gift_is_receipted_once_whichever_came_first_and_not_when_it_paid_a_pledge(usher, campaign, event):
    desk_first = entry(usher, event, kind="mpesa", amount=2_000, mpesa_receipt="SLK4H7R2QX")
    pay_bill("HARAMBEE", 2_000, "SLK4H7R2QX")
    pay_bill("HARAMBEE", 3_000, "SLK4H7R2QY")
    confirmation_first = entry(usher, event, kind="mpesa", amount=3_000, mpesa_receipt="SLK4H7R2QY")
    same_receipt_again = entry(usher, event, kind="mpesa", amount=3_000, mpesa_receipt="SLK4H7R2QY")
    pledge = make_pledge(campaign, amount=10_000, phone="+254700000001")
    pay_bill(pledge.code, 1_000, "SLK4H7R2QZ")
    paid_a_pledge = entry(usher, event, kind="mpesa", amount=1_000, mpesa_receipt="SLK4H7R2QZ")

    assert [a.status_code for a in (desk_first, confirmation_first, same_receipt_again, paid_a_pledge)] == [201] * 4
    assert sorted(receipts().values_list("payment__mpesa_receipt", flat=True)) == ["SLK4H7R2QX", "SLK4H7R2QY"]
    desk_first_receipt = receipts().get(payment__mpesa_receipt="SLK4H7R2QX").body
    assert desk_first_receipt.startswith(f"Thank you! Ksh 2,000 received by M-Pesa SLK4H7R2QX for {campaign.title}.")


@committing
def test_desk_receipts_are_limited_like_every_message_their_recipient_did_not_ask_for(
    sms_gateway, usher, campaign, event
):
    # The usher typed the number: it may be anyone's.
    for amount in (100, 200, 300, 400):
        assert entry(usher, event, kind="cash", amount=amount).status_code == 201

    statuses = sorted(receipts().values_list("status", flat=True))

    assert statuses == ["limited", "sent", "sent", "sent"]


@override_settings(RATE_LIMIT_DESK_PASSCODE=(1, 600))
def test_a_guess_is_counted_before_it_is_judged_so_parallel_guesses_get_no_more_judged(
    make_api_client, event, monkeypatch
):
    judged, meanwhile = [], []
    judge = desk_services.passcode_hash

    def sign_in(passcode):
        return make_api_client().post("/api/desk/sign-in", {"passcode": passcode}, REMOTE_ADDR="127.0.0.46")

    def judge_while_another_guess_arrives(code):
        judged.append(code)
        if len(judged) == 1:
            meanwhile.append(sign_in("WRONG222"))
        return judge(code)

    monkeypatch.setattr(desk_services, "passcode_hash", judge_while_another_guess_arrives)

    first = sign_in("WRONG111")

    assert (first.status_code, meanwhile[0].status_code) == (422, 429)
    assert judged == ["WRONG111"]
