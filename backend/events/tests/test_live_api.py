"""GET /api/campaigns/{id}/live (the big screen) and hiding entries from it, through HTTP."""

from datetime import timedelta

import pytest
from django.utils import timezone

from audit.models import AuditAction, AuditEntry
from campaigns.caching import campaign_changed
from campaigns.models import CampaignStatus
from campaigns.tests.factories import CampaignFactory
from events.models import HiddenEntry
from events.tests.factories import open_event
from organizations.models import Membership
from organizations.roles import Role
from pledges.models import Pledge
from pledges.services import pledge_payment_record
from pledges.tests.factories import make_pledge, paid_donation

pytestmark = pytest.mark.django_db


def live(client, campaign, **headers):
    return client.get(f"/api/campaigns/{campaign.pk}/live", **headers)


def hide(client, campaign, kind, entry_id):
    return client.post(f"/api/campaigns/{campaign.pk}/live/hidden", {"kind": kind, "id": entry_id})


def test_the_screen_shows_totals_and_the_newest_entries_first(visitor_client, campaign):
    make_pledge(campaign, amount=5_000, name="Wanjiru Kamau")
    paid_donation(campaign, name="Otieno Okoth", amount=700)
    make_pledge(campaign, amount=20_000, name="Mutua Musyoka")

    body = live(visitor_client, campaign).json()

    assert body["goal"] == 100_000
    assert body["pledged_total"] == 25_000
    assert body["progress_percent"] == 25
    assert body["raised_total"] == 700
    assert [(e["kind"], e["name"], e["amount"]) for e in body["entries"]] == [
        ("pledge", "Mutua Musyoka", 20_000),
        ("gift", "Otieno Okoth", 700),
        ("pledge", "Wanjiru Kamau", 5_000),
    ]
    assert len({e["key"] for e in body["entries"]}) == 3
    assert body["event"] is None
    assert body["share_url"].endswith(f"/campaign/{campaign.pk}")


def test_the_screen_never_carries_a_hidden_name_email_or_phone(visitor_client, campaign):
    make_pledge(campaign, name="Secret Pledger", email="secret.pledger@example.com", phone="0711999888", anonymous=True)
    paid_donation(campaign, name="Quiet Giver", email="quiet.giver@example.com", anonymous=True)

    response = live(visitor_client, campaign)

    text = response.content.decode()
    for private in ("Secret Pledger", "secret.pledger", "0711999888", "711999888", "Quiet Giver", "quiet.giver"):
        assert private not in text
    assert [e["name"] for e in response.json()["entries"]] == ["Anonymous", "Anonymous"]


def test_a_hidden_entry_leaves_the_feed_but_stays_in_the_books(visitor_client, organizer_client, campaign):
    joke = make_pledge(campaign, amount=9_000, name="Mickey Mouse")
    make_pledge(campaign, amount=1_000, name="Akinyi Odhiambo")
    gift = paid_donation(campaign, name="Donald Duck", amount=300)

    assert hide(organizer_client, campaign, "pledge", joke.pk).status_code == 204
    assert hide(organizer_client, campaign, "gift", gift.pk).status_code == 204

    body = live(visitor_client, campaign).json()
    assert [e["name"] for e in body["entries"]] == ["Akinyi Odhiambo"]
    assert "Mickey" not in str(body) and "Donald" not in str(body)
    assert body["pledged_total"] == 10_000  # the hidden pledge still counts
    assert body["raised_total"] == 300
    assert Pledge.objects.filter(pk=joke.pk, cancelled_at__isnull=True).exists()


def test_hiding_twice_keeps_one_record(organizer_client, campaign):
    pledge = make_pledge(campaign)
    hide(organizer_client, campaign, "pledge", pledge.pk)
    assert hide(organizer_client, campaign, "pledge", pledge.pk).status_code == 204
    assert HiddenEntry.objects.filter(pledge=pledge).count() == 1


@pytest.mark.parametrize(("role", "status"), [(Role.USHER, 204), (Role.TREASURER, 204), (Role.VIEWER, 403)])
def test_ushers_and_treasurers_may_hide_entries_viewers_may_not(make_api_client, member, campaign, role, status):
    Membership.objects.create(organization=campaign.organization, user=member, role=role)
    pledge = make_pledge(campaign)
    assert hide(make_api_client(signed_in_as=member), campaign, "pledge", pledge.pk).status_code == status


def test_an_entry_of_another_campaign_cannot_be_hidden_through_this_one(organizer_client, campaign):
    other = make_pledge(CampaignFactory.create())
    response = hide(organizer_client, campaign, "pledge", other.pk)
    assert response.status_code == 404
    assert not HiddenEntry.objects.exists()


def test_during_an_event_the_feed_starts_at_its_opening(visitor_client, campaign):
    before = make_pledge(campaign, amount=4_000, name="Early Bird")
    Pledge.objects.filter(pk=before.pk).update(created_at=timezone.now() - timedelta(hours=2))
    event = open_event(campaign, opened_minutes_ago=30)
    make_pledge(campaign, amount=6_000, name="Tonight Giver")

    body = live(visitor_client, campaign).json()

    assert [e["name"] for e in body["entries"]] == ["Tonight Giver"]
    assert body["event"] == {
        "id": event.pk,
        "title": "Harambee Sunday",
        "opened_at": body["event"]["opened_at"],
        "pledged_total": 6_000,
        "given_total": 0,
    }
    assert body["pledged_total"] == 10_000


def test_an_unchanged_screen_is_answered_304_without_the_database(visitor_client, campaign, django_assert_num_queries):
    make_pledge(campaign)
    first = live(visitor_client, campaign)
    etag = first["ETag"]

    with django_assert_num_queries(0):
        again = live(visitor_client, campaign, HTTP_IF_NONE_MATCH=etag)

    assert again.status_code == 304
    assert again["ETag"] == etag
    assert again.content == b""


def test_a_changed_screen_is_rendered_once_in_a_fixed_number_of_queries(
    visitor_client, campaign, django_assert_num_queries
):
    open_event(campaign)
    for n in range(5):
        make_pledge(campaign, name=f"Giver {n}", phone=f"07110002{n:02d}")
        paid_donation(campaign, name=f"Donor {n}")
    live(visitor_client, campaign)  # starts the version token
    campaign_changed(campaign_id=campaign.pk)  # as every pledge, gift or payment does

    # The campaign, its open event, the pledges, the gifts with their payments, the sum paid, the
    # night's pledged and given, its accounts.
    with django_assert_num_queries(8):
        response = live(visitor_client, campaign)
    # Every other screen of the hall: the same answer, from the shared cache.
    with django_assert_num_queries(0):
        again = live(visitor_client, campaign)

    assert len(response.json()["entries"]) == 10
    assert (again.content, again["ETag"]) == (response.content, response["ETag"])


def test_every_change_gives_screens_a_new_etag(visitor_client, organizer_client, campaign):
    pledge = make_pledge(campaign)
    etags = [live(visitor_client, campaign)["ETag"]]

    make_pledge(campaign, name="Another Giver", phone="0722000111")  # a new pledge
    etags.append(live(visitor_client, campaign)["ETag"])
    pledge_payment_record(  # a payment towards a pledge
        pledge_id=pledge.pk, user=campaign.organizer, amount=1_000, method="cash", note="", reference=""
    )
    etags.append(live(visitor_client, campaign)["ETag"])
    hide(organizer_client, campaign, "pledge", pledge.pk)  # moderation
    etags.append(live(visitor_client, campaign)["ETag"])

    assert len(set(etags)) == 4
    response = live(visitor_client, campaign, HTTP_IF_NONE_MATCH=etags[0])
    assert response.status_code == 200


def test_visitors_answers_may_be_kept_by_the_balancer_signed_in_ones_not(visitor_client, organizer_client, campaign):
    visitor_client.cookies.clear()
    anonymous = live(visitor_client, campaign)
    signed_in = live(organizer_client, campaign)

    assert "s-maxage=1" in anonymous["Cache-Control"]
    assert signed_in["Cache-Control"] == "private, no-cache"
    assert "Accept-Language" in anonymous["Vary"] and "Cookie" in anonymous["Vary"]


@pytest.mark.parametrize("status", [CampaignStatus.PENDING, CampaignStatus.CLOSED])
def test_only_an_active_campaign_has_a_big_screen(organizer_client, campaign, status):
    campaign.status = status
    campaign.save()
    assert live(organizer_client, campaign).status_code == 404


def test_a_campaign_closed_after_a_screen_loaded_is_no_longer_shown(visitor_client, campaign):
    etag = live(visitor_client, campaign)["ETag"]
    campaign.status = CampaignStatus.CLOSED
    campaign.save()
    assert live(visitor_client, campaign, HTTP_IF_NONE_MATCH=etag).status_code == 404


def test_names_follow_the_readers_language(visitor_client, campaign):
    make_pledge(campaign, anonymous=True)
    english = live(visitor_client, campaign)
    swahili = live(visitor_client, campaign, HTTP_ACCEPT_LANGUAGE="sw")

    assert english["ETag"] != swahili["ETag"]
    assert swahili.json()["entries"][0]["name"] != "Anonymous"


def hidden_list(client, campaign):
    return client.get(f"/api/campaigns/{campaign.pk}/live/hidden")


def unhide(client, campaign, kind, entry_id):
    return client.delete(f"/api/campaigns/{campaign.pk}/live/hidden/{kind}/{entry_id}")


def test_hiding_and_showing_again_are_audited(organizer_client, campaign):
    pledge = make_pledge(campaign, name="Mickey Mouse")

    hide(organizer_client, campaign, "pledge", pledge.pk)
    hide(organizer_client, campaign, "pledge", pledge.pk)  # already hidden: nothing more to record
    unhide(organizer_client, campaign, "pledge", pledge.pk)

    entries = AuditEntry.objects.filter(object_id=pledge.pk).order_by("pk")
    assert [(e.action, e.actor) for e in entries] == [
        (AuditAction.LIVE_ENTRY_HIDDEN, campaign.organizer),
        (AuditAction.LIVE_ENTRY_UNHIDDEN, campaign.organizer),
    ]


def test_a_hidden_entry_shown_again_is_back_on_the_screen_in_its_place(visitor_client, organizer_client, campaign):
    first = make_pledge(campaign, amount=1_000, name="Akinyi Odhiambo")
    gift = paid_donation(campaign, name="Otieno Okoth", amount=300)
    make_pledge(campaign, amount=2_000, name="Mutua Musyoka", phone="0722000111")
    hide(organizer_client, campaign, "pledge", first.pk)
    hide(organizer_client, campaign, "gift", gift.pk)
    hidden_etag = live(visitor_client, campaign)["ETag"]

    assert unhide(organizer_client, campaign, "pledge", first.pk).status_code == 204
    assert unhide(organizer_client, campaign, "gift", gift.pk).status_code == 204

    response = live(visitor_client, campaign, HTTP_IF_NONE_MATCH=hidden_etag)
    assert response.status_code == 200  # every screen gets it at its next poll
    assert [e["name"] for e in response.json()["entries"]] == ["Mutua Musyoka", "Otieno Okoth", "Akinyi Odhiambo"]
    assert not HiddenEntry.objects.exists()


def test_showing_an_entry_that_is_not_hidden_changes_nothing(organizer_client, campaign):
    pledge = make_pledge(campaign)
    assert unhide(organizer_client, campaign, "pledge", pledge.pk).status_code == 204
    assert not AuditEntry.objects.filter(action=AuditAction.LIVE_ENTRY_UNHIDDEN).exists()


def test_moderators_see_what_was_hidden_as_the_screen_showed_it(organizer_client, campaign):
    secret = make_pledge(campaign, amount=9_000, name="Secret Pledger", anonymous=True)
    joke = paid_donation(campaign, name="Donald Duck", amount=300)
    hide(organizer_client, campaign, "pledge", secret.pk)
    hide(organizer_client, campaign, "gift", joke.pk)

    body = hidden_list(organizer_client, campaign).json()

    assert [(e["key"], e["kind"], e["id"], e["name"], e["amount"]) for e in body] == [
        (f"gift-{joke.pk}", "gift", joke.pk, "Donald Duck", 300),
        (f"pledge-{secret.pk}", "pledge", secret.pk, "Anonymous", 9_000),
    ]
    assert all(e["hidden_at"] for e in body)
    assert "Secret Pledger" not in str(body)


@pytest.mark.parametrize(("role", "status"), [(Role.USHER, 204), (Role.TREASURER, 204), (Role.VIEWER, 403)])
def test_ushers_and_treasurers_may_show_an_entry_again_viewers_may_not(
    make_api_client, member, organizer_client, campaign, role, status
):
    Membership.objects.create(organization=campaign.organization, user=member, role=role)
    pledge = make_pledge(campaign)
    hide(organizer_client, campaign, "pledge", pledge.pk)

    assert unhide(make_api_client(signed_in_as=member), campaign, "pledge", pledge.pk).status_code == status
    assert HiddenEntry.objects.filter(pledge=pledge).exists() == (status == 403)


def test_an_entry_of_another_campaign_cannot_be_shown_through_this_one(organizer_client, campaign):
    other_campaign = CampaignFactory.create()
    other = make_pledge(other_campaign)
    HiddenEntry.objects.create(campaign=other_campaign, pledge=other)

    assert unhide(organizer_client, campaign, "pledge", other.pk).status_code == 404
    assert HiddenEntry.objects.filter(pledge=other).exists()


def test_the_screen_never_carries_an_entry_hidden_by_moderation_whatever_it_holds(
    visitor_client, organizer_client, campaign
):
    # The HTTP acceptance check: names, e-mails and phones of anonymous givers, and every moderated entry.
    secret = make_pledge(
        campaign, name="Secret Pledger", email="secret.pledger@example.com", phone="0711999888", anonymous=True
    )
    shown = make_pledge(campaign, name="Open Giver", email="open.giver@example.com", phone="0722333444")
    joke = make_pledge(campaign, name="Mickey Mouse", email="mickey@example.com", phone="0733555666")
    rude = paid_donation(campaign, name="Rude Word", email="rude@example.com", amount=50)
    quiet = paid_donation(campaign, name="Quiet Giver", email="quiet.giver@example.com", anonymous=True)
    for kind, entry in (("pledge", joke), ("gift", rude)):
        hide(organizer_client, campaign, kind, entry.pk)

    text = live(visitor_client, campaign).content.decode()

    for private in (
        "Secret Pledger", "secret.pledger", "0711999888", "711999888",  # anonymous
        "open.giver", "0722333444", "722333444",  # never a contact, even of a named giver
        "Mickey", "mickey@", "0733555666", "733555666", f"pledge-{joke.pk}",  # moderated
        "Rude Word", "rude@", f"gift-{rude.pk}",  # moderated
        "Quiet Giver", "quiet.giver",  # anonymous
    ):  # fmt: skip
        assert private not in text
    assert f"pledge-{secret.pk}" in text and f"gift-{quiet.pk}" in text and "Open Giver" in text
    assert f"pledge-{shown.pk}" in text
