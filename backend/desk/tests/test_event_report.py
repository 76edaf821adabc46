"""The night's report through HTTP: figures from every channel, by way of giving and by usher, new
pledgers, masking, its CSV, and queries that do not grow with the night."""

import csv
import io
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from campaigns.tests.factories import CampaignFactory
from desk.tests.test_desk_api import entry, member_client, passcode_client
from events.models import Event
from events.tests.factories import open_event
from events.tests.test_live_api import hide
from organizations.roles import Role
from payments.models import Payment
from pledges.models import Donation, Pledge, PledgeChannel
from pledges.services import pledge_create_by_phone
from pledges.tests.factories import make_pledge, paid_donation
from pledges.tests.test_management import pay_bill

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(campaign):
    return open_event(campaign, opened_minutes_ago=60)


def report(client, event):
    answer = client.get(f"/api/events/{event.pk}/report")
    assert answer.status_code == 200, answer.content
    return answer.json()


def before(event, *rows):
    """Moves pledges or gifts to before the event opened."""
    for row in rows:
        type(row).objects.filter(pk=row.pk).update(
            created_at=event.opened_at - timedelta(days=1),
            **({"counted_at": event.opened_at - timedelta(days=1)} if hasattr(row, "counted_at") else {}),
        )


def close(event):
    Event.objects.filter(pk=event.pk).update(closed_at=timezone.now())
    event.refresh_from_db()


def test_the_report_counts_the_nights_pledges_and_gifts_from_every_channel_by_way_and_by_usher(
    campaign, event, organizer_client, make_api_client
):
    usher = member_client(campaign, make_api_client, Role.USHER)
    volunteer = passcode_client(organizer_client, make_api_client, event, volunteer="Mary Wambui")
    assert entry(usher, event, amount=20_000, name="Wanjiru Kamau", phone="0712000001").status_code == 201
    assert entry(usher, event, kind="cash", amount=1_500, phone="").status_code == 201
    assert entry(volunteer, event, kind="mpesa", amount=700, phone="", mpesa_receipt="SLK1AB2CD3").status_code == 201
    web = make_pledge(campaign, amount=5_000, name="Otieno Odhiambo", phone="0712000002")
    pay_bill(web.code, 2_000, "SLK9ZZ0001")
    pledge_create_by_phone(
        campaign_id=campaign.pk, amount=3_000, phone="0712000003", is_anonymous=True, channel=PledgeChannel.USSD
    )
    pledge_create_by_phone(
        campaign_id=campaign.pk, amount=1_200, phone="0712000005", is_anonymous=True, channel=PledgeChannel.SMS
    )
    online_gift = paid_donation(campaign, name="Akinyi", amount=400)
    Payment.objects.filter(pk=online_gift.payment_id).update(provider=Payment.Provider.MPESA_STK)
    earlier = make_pledge(campaign, amount=9_999, name="Before", phone="0712000009")
    cancelled = make_pledge(campaign, amount=8_888, name="Cancelled", phone="0712000008")
    before(event, earlier)
    Pledge.objects.filter(pk=cancelled.pk).update(cancelled_at=timezone.now())

    night = report(organizer_client, event)

    assert night["pledged"] == {"count": 4, "amount": 29_200}
    assert night["paid_against_pledges"] == 2_000
    assert night["given"] == {"count": 3, "amount": 2_600}
    assert {row["method"]: (row["count"], row["amount"]) for row in night["by_method"]} == {
        "desk_pledge": (1, 20_000),
        "desk_cash": (1, 1_500),
        "desk_mpesa": (1, 700),
        "web": (1, 5_000),
        "ussd": (1, 3_000),
        "sms": (1, 1_200),
        "mpesa": (1, 400),
    }
    ushers = {row["usher_name"]: row for row in night["by_usher"]}
    assert set(ushers) == {"Mary Wambui", usher_name(usher)}
    assert ushers["Mary Wambui"]["mpesa"] == {"count": 1, "amount": 700}
    assert ushers[usher_name(usher)]["pledge_cards"] == {"count": 1, "amount": 20_000}
    assert ushers[usher_name(usher)]["cash"] == {"count": 1, "amount": 1_500}
    assert [line["amount"] for line in night["entries"]] == [20_000, 1_500, 700, 5_000, 3_000, 1_200, 400]
    assert night["entries"][0]["usher_name"] == usher_name(usher)
    assert night["entries"][3]["usher_name"] is None


def usher_name(client):
    return client.get("/api/auth/session").json()["user"]["display_name"]


def test_a_desk_entry_delivered_after_the_close_still_counts_for_its_event(campaign, event, organizer_client):
    close(event)

    assert entry(organizer_client, event, amount=2_500, phone="0712000004").status_code == 201

    assert report(organizer_client, event)["pledged"] == {"count": 1, "amount": 2_500}


def test_an_m_pesa_receipt_already_in_the_books_is_counted_once_and_named_in_its_ushers_figures(
    campaign, event, organizer_client
):
    assert entry(organizer_client, event, kind="mpesa", amount=700, phone="", mpesa_receipt="SLK1AB2CD3").status_code
    again = entry(organizer_client, event, kind="mpesa", amount=700, phone="", mpesa_receipt="SLK1AB2CD3")
    assert again.json()["already_in_books"] is True

    night = report(organizer_client, event)

    assert night["given"] == {"count": 1, "amount": 700}
    (usher,) = night["by_usher"]
    assert (usher["mpesa"], usher["already_in_books"]) == ({"count": 1, "amount": 700}, 1)


def test_a_new_pledger_had_no_earlier_pledge_to_the_organization_by_phone_e_mail_or_account(
    campaign, event, organizer_client
):
    sister = CampaignFactory.create(organizer=campaign.organizer, organization=campaign.organization)
    elsewhere = CampaignFactory.create()
    known_by_phone = make_pledge(sister, phone="0712000011", email="first@example.com")
    known_by_email = make_pledge(campaign, phone="0712000012", email="Same@Example.com")
    other_organization = make_pledge(elsewhere, phone="0712000013", email="elsewhere@example.com")
    cancelled_earlier = make_pledge(campaign, phone="0712000014", email="cancelled@example.com")
    Pledge.objects.filter(pk=cancelled_earlier.pk).update(cancelled_at=timezone.now())
    before(event, known_by_phone, known_by_email, other_organization, cancelled_earlier)
    make_pledge(campaign, phone="0712000011", email="new@example.com")
    make_pledge(campaign, phone="0712000015", email="same@example.com")
    make_pledge(campaign, phone="0712000013", email="elsewhere@example.com")
    make_pledge(campaign, phone="0712000014", email="again@example.com")
    make_pledge(campaign, phone="0712000016", email="twice@example.com")
    make_pledge(campaign, phone="0712000016", email="twice@example.com", amount=1_000)

    night = report(organizer_client, event)

    new = {line["phone"] for line in night["entries"] if line["new_pledger"]}
    assert new == {"+254712000013", "+254712000016"}
    assert night["new_pledgers"] == 2


def test_treasurers_see_the_real_name_of_an_anonymous_pledger_marked_anonymous(campaign, event, make_api_client):
    treasurer = member_client(campaign, make_api_client, Role.TREASURER)
    make_pledge(campaign, name="Kamau Njoroge", anonymous=True, phone="0712000021")

    (line,) = report(treasurer, event)["entries"]

    assert (line["name"], line["is_anonymous"], line["phone"]) == ("Kamau Njoroge", True, "+254712000021")


@pytest.mark.parametrize(("role", "status"), [(Role.VIEWER, 200), (Role.USHER, 403)])
def test_viewers_read_the_report_but_ushers_do_not(campaign, event, make_api_client, role, status):
    client = member_client(campaign, make_api_client, role)

    assert client.get(f"/api/events/{event.pk}/report").status_code == status


def test_a_desk_passcode_cannot_read_the_report(campaign, event, organizer_client, make_api_client):
    volunteer = passcode_client(organizer_client, make_api_client, event)

    assert volunteer.get(f"/api/events/{event.pk}/report").status_code == 401
    assert volunteer.get(f"/api/events/{event.pk}/report.csv").status_code == 401


def test_an_event_not_opened_yet_has_no_report(campaign, organizer_client):
    event = Event.objects.create(
        campaign=campaign,
        title="Next Sunday",
        starts_at=timezone.now() + timedelta(days=7),
        ends_at=timezone.now() + timedelta(days=7, hours=3),
    )

    answer = organizer_client.get(f"/api/events/{event.pk}/report")

    assert (answer.status_code, answer.json()["code"]) == (400, "event_not_open")


def test_someone_outside_the_team_is_refused_and_a_missing_event_is_not_found(event, make_api_client):
    from accounts.tests.factories import UserFactory

    stranger = make_api_client(signed_in_as=UserFactory.create())

    assert stranger.get(f"/api/events/{event.pk}/report").status_code == 403
    assert stranger.get(f"/api/events/{event.pk + 1000}/report").status_code == 404


def test_the_csv_has_a_header_one_row_per_entry_and_no_formulas(campaign, event, organizer_client):
    pledge = make_pledge(campaign, phone="0712000031", amount=2_000)
    gift = entry(organizer_client, event, kind="cash", amount=300, phone="")
    # Stored before names were checked as they are now.
    Pledge.objects.filter(pk=pledge.pk).update(name='=HYPERLINK("http://x")')
    Donation.objects.filter(desk_entries__pk=gift.json()["id"]).update(name="@SUM(A1)")

    answer = organizer_client.get(f"/api/events/{event.pk}/report.csv")

    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/csv")
    assert answer["Content-Disposition"].startswith(f'attachment; filename="event-{event.pk}-report-')
    rows = list(csv.reader(io.StringIO(b"".join(answer.streaming_content).decode("utf-8-sig"))))
    assert rows[0][:4] == ["Time", "Kind", "Method", "Name"]
    assert [(row[2], row[3], row[7]) for row in rows[1:]] == [
        ("Online pledge", '\'=HYPERLINK("http://x")', "2000"),
        ("Desk: cash", "'@SUM(A1)", "300"),
    ]


def test_viewers_cannot_download_the_csv(campaign, event, make_api_client):
    viewer = member_client(campaign, make_api_client, Role.VIEWER)

    assert viewer.get(f"/api/events/{event.pk}/report.csv").status_code == 403


@pytest.mark.parametrize("path", ["report", "report.csv"])
def test_the_reports_queries_do_not_grow_with_the_night(campaign, organizer_client, path):
    counts = []
    for size in (1, 20):
        this_campaign = CampaignFactory.create(organizer=campaign.organizer, organization=campaign.organization)
        event = open_event(this_campaign, opened_minutes_ago=5)
        for i in range(size):
            make_pledge(
                this_campaign, phone=f"0713{size:02d}{i:04d}", email=f"p{size}-{i}@example.com", amount=1_000 + i
            )
            paid_donation(this_campaign, amount=100 + i)
            entry(organizer_client, event, kind="cash", amount=50 + i, phone="", address="127.0.0.41")
        with CaptureQueriesContext(connection) as queries:
            answer = organizer_client.get(f"/api/events/{event.pk}/{path}")
            if path.endswith(".csv"):
                b"".join(answer.streaming_content)
        assert answer.status_code == 200
        counts.append(len(queries))

    assert counts[0] == counts[1]


def test_the_big_screen_shows_the_nights_totals_the_report_gives_under_the_public_figure_rule(
    campaign, event, organizer_client, make_api_client, visitor_client
):
    campaign.unsigned_pledges_count_after_payment = True
    campaign.save(update_fields=["unsigned_pledges_count_after_payment"])
    usher = member_client(campaign, make_api_client, Role.USHER)
    assert entry(usher, event, kind="cash", amount=1_500, phone="").status_code == 201  # desk cash
    assert entry(usher, event, kind="mpesa", amount=700, phone="", mpesa_receipt="SLK1AB2CD3").status_code == 201
    card_gift = paid_donation(campaign, name="Akinyi", amount=400)
    Payment.objects.filter(pk=card_gift.payment_id).update(provider=Payment.Provider.CARD)
    paid = make_pledge(campaign, amount=5_000, name="Otieno Odhiambo", phone="0712000002")
    pay_bill(paid.code, 2_000, "SLK9ZZ0001")
    make_pledge(campaign, amount=3_000, name="Not paid, not signed in", phone="0712000003")  # not public yet
    joke = make_pledge(campaign, amount=77_777, name="Joker", phone="0712000004")
    pay_bill(joke.code, 1, "SLK9ZZ0002")
    hidden_gift = paid_donation(campaign, name="Rude", amount=50_000)
    assert hide(organizer_client, campaign, "pledge", joke.pk).status_code == 204
    assert hide(organizer_client, campaign, "gift", hidden_gift.pk).status_code == 204
    earlier = make_pledge(campaign, amount=9_999, name="Before", phone="0712000009")
    before(event, earlier)

    screen = visitor_client.get(f"/api/campaigns/{campaign.pk}/live").json()["event"]
    night = report(organizer_client, event)

    assert (screen["pledged_total"], screen["given_total"]) == (5_000, 1_500 + 700 + 400)
    assert (night["shown_pledged"], night["shown_given"]) == (screen["pledged_total"], screen["given_total"])
    # The report's own totals keep every entry in the books, hidden ones included.
    assert (night["pledged"]["amount"], night["given"]["amount"]) == (5_000 + 3_000 + 77_777, 2_600 + 50_000)
