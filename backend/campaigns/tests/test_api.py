import io
import json
from datetime import timedelta

import pytest
import segno
from django.utils import timezone

from campaigns.models import Campaign, CampaignLike, CampaignStatus, CampaignType, MediaType
from campaigns.tests.factories import CampaignFactory, CampaignLikeFactory, link_account
from collection_accounts.tests.factories import CollectionAccountFactory

pytestmark = pytest.mark.django_db

NOT_FOUND = {"detail": "Campaign not found", "code": "not_found", "field_errors": {}}
SIGN_IN = {"detail": "Please sign in to continue.", "code": "not_authenticated", "field_errors": {}}
NOT_ORGANIZER = "Only the campaign's owners, or an admin, can edit this campaign."
ALL_VIEWERS = ["visitor", "member", "organizer", "admin"]


def ids(response):
    return [row["id"] for row in response.json()]


# GET /api/campaigns -------------------------------------------------------------------


def test_the_list_answers_an_array_of_cards_with_the_total_in_a_header(visitor_client, campaign):
    CampaignLikeFactory.create(campaign=campaign)

    response = visitor_client.get("/api/campaigns")

    assert response.status_code == 200
    assert response["X-Total-Count"] == "1"
    [card] = response.json()
    assert card == {
        "id": campaign.pk,
        "type": "pledging",
        "status": "active",
        "title": "Church Roof Repair",
        "description": "Help us reach our goal.",
        "category": "church",
        "category_label": "Church",
        "goal": 100_000,
        "pledged_total": 0,
        "raised_total": 0,
        "donor_count": 0,
        "progress_percent": 0,
        "media_type": "image",
        "image_url": "https://example.com/cover.jpg",
        "youtube_id": "",
        "cover_image_url": "https://example.com/cover.jpg",
        "cover_srcset": [],
        "end_date": campaign.end_date.isoformat(),
        "days_left": 30,
        "has_ended": False,
        "like_count": None,
        "liked_by_me": False,
        "created_at": card["created_at"],
    }


@pytest.mark.parametrize("viewer", ["visitor", "member", "organizer"])
def test_only_active_campaigns_are_listed_for_everyone_but_admins(clients, viewer, campaign, pending_campaign):
    closed = CampaignFactory.create(organizer=campaign.organizer, status=CampaignStatus.CLOSED)

    response = clients[viewer].get("/api/campaigns")

    assert ids(response) == [campaign.pk]
    assert closed.pk not in ids(response)
    # Asking for hidden statuses finds nothing rather than leaking them.
    assert clients[viewer].get("/api/campaigns?status=pending").json() == []
    assert clients[viewer].get("/api/campaigns?status=pending")["X-Total-Count"] == "0"


def test_admins_may_list_campaigns_of_any_status(site_admin_client, campaign, pending_campaign):
    closed = CampaignFactory.create(status=CampaignStatus.CLOSED)

    assert ids(site_admin_client.get("/api/campaigns")) == [campaign.pk]
    assert ids(site_admin_client.get("/api/campaigns?status=pending")) == [pending_campaign.pk]
    assert ids(site_admin_client.get("/api/campaigns?status=closed")) == [closed.pk]


def test_the_list_is_newest_first(visitor_client):
    older = CampaignFactory.create()
    newer = CampaignFactory.create()
    Campaign.objects.filter(pk=older.pk).update(created_at=timezone.now() - timedelta(days=1))

    assert ids(visitor_client.get("/api/campaigns")) == [newer.pk, older.pk]


def test_search_matches_every_word_in_title_or_description_ignoring_case(visitor_client):
    roof = CampaignFactory.create(title="Church Roof Repair", description="The long rains tore the roof.")
    water = CampaignFactory.create(title="Clean Water", description="A borehole for the CHURCH school.")
    CampaignFactory.create(title="School fees", description="Form one students.")

    assert sorted(ids(visitor_client.get("/api/campaigns?q=church"))) == sorted([roof.pk, water.pk])
    assert ids(visitor_client.get("/api/campaigns?q=church+borehole")) == [water.pk]
    assert ids(visitor_client.get("/api/campaigns?q=ROOF")) == [roof.pk]
    assert visitor_client.get("/api/campaigns?q=mosque").json() == []


def test_search_treats_like_wildcards_as_plain_text(visitor_client):
    CampaignFactory.create(title="Ten percent")
    discount = CampaignFactory.create(title="Save 50% now")

    assert ids(visitor_client.get("/api/campaigns?q=%25")) == [discount.pk]
    assert visitor_client.get("/api/campaigns?q=_").json() == []


def test_category_and_type_filters(visitor_client):
    medical = CampaignFactory.create(category="medical")
    CampaignFactory.create(category="sports")
    fundraiser = CampaignFactory.create(category="medical", type=CampaignType.FUNDRAISING)

    assert sorted(ids(visitor_client.get("/api/campaigns?category=medical"))) == sorted([medical.pk, fundraiser.pk])
    assert ids(visitor_client.get("/api/campaigns?category=medical&type=pledging")) == [medical.pk]
    assert visitor_client.get("/api/campaigns?category=animals").json() == []


@pytest.mark.parametrize("everything", ["", "all"])
def test_an_empty_or_all_category_means_no_filter(visitor_client, everything):
    CampaignFactory.create(category="medical")
    CampaignFactory.create(category="sports")

    response = visitor_client.get(f"/api/campaigns?category={everything}&type=&status=")

    assert response.status_code == 200
    assert response["X-Total-Count"] == "2"


def test_search_and_category_combine(visitor_client):
    match = CampaignFactory.create(title="Surgery for Wanjiru", category="medical")
    CampaignFactory.create(title="Surgery fund", category="community")
    CampaignFactory.create(title="Dialysis", category="medical")

    assert ids(visitor_client.get("/api/campaigns?q=surgery&category=medical")) == [match.pk]


def test_pages_split_the_list_and_keep_the_total(visitor_client):
    campaigns = CampaignFactory.create_batch(5)
    newest_first = [c.pk for c in sorted(campaigns, key=lambda c: (c.created_at, c.pk), reverse=True)]

    first = visitor_client.get("/api/campaigns?page_size=2")
    third = visitor_client.get("/api/campaigns?page=3&page_size=2")
    beyond = visitor_client.get("/api/campaigns?page=4&page_size=2")

    assert ids(first) == newest_first[:2]
    assert ids(third) == newest_first[4:]
    assert beyond.status_code == 200
    assert beyond.json() == []
    assert first["X-Total-Count"] == third["X-Total-Count"] == beyond["X-Total-Count"] == "5"


def test_the_default_page_size_is_12(visitor_client):
    CampaignFactory.create_batch(13)

    assert len(visitor_client.get("/api/campaigns").json()) == 12


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("page_size=0", "page_size"),
        ("page_size=51", "page_size"),
        ("page=0", "page"),
        ("page=-1", "page"),
        ("page=abc", "page"),
        ("category=unknown", "category"),
        ("type=unknown", "type"),
        (f"q={'x' * 101}", "q"),
    ],
)
def test_bad_list_parameters_answer_422_naming_the_field(visitor_client, query, field):
    response = visitor_client.get(f"/api/campaigns?{query}")

    assert response.status_code == 422
    assert response.json()["detail"] == "Please correct the errors below"
    assert list(response.json()["field_errors"]) == [field]


def test_a_page_far_beyond_the_end_is_empty_not_an_error(visitor_client, campaign):
    response = visitor_client.get(f"/api/campaigns?page={10**30}&page_size=50")

    assert response.status_code == 200
    assert response.json() == []
    assert response["X-Total-Count"] == "1"


def test_page_size_50_is_allowed(visitor_client):
    assert visitor_client.get("/api/campaigns?page_size=50").status_code == 200


def test_admins_see_like_counts_and_everyone_signed_in_sees_their_own_like(clients, campaign, member, site_admin):
    CampaignLikeFactory.create(campaign=campaign, user=member)
    CampaignLikeFactory.create(campaign=campaign)

    cards = {viewer: clients[viewer].get("/api/campaigns").json()[0] for viewer in ALL_VIEWERS}

    assert {viewer: card["like_count"] for viewer, card in cards.items()} == {
        "visitor": None,
        "member": None,
        "organizer": None,
        "admin": 2,
    }
    assert {viewer: card["liked_by_me"] for viewer, card in cards.items()} == {
        "visitor": False,
        "member": True,
        "organizer": False,
        "admin": False,
    }


@pytest.mark.parametrize("count", [1, 30])
def test_the_list_takes_two_queries_for_a_visitor_whatever_the_number_of_campaigns(
    visitor_client, django_assert_num_queries, count
):
    for campaign in CampaignFactory.create_batch(count):
        CampaignLikeFactory.create_batch(2, campaign=campaign)

    with django_assert_num_queries(2):  # the count, the page
        response = visitor_client.get("/api/campaigns?page_size=50")
    assert len(response.json()) == count


@pytest.mark.parametrize("count", [1, 30])
def test_the_list_takes_four_queries_for_an_admin_whatever_the_number_of_campaigns(
    site_admin_client, site_admin, django_assert_num_queries, count
):
    for campaign in CampaignFactory.create_batch(count):
        CampaignLikeFactory.create_batch(2, campaign=campaign)
        CampaignLikeFactory.create(campaign=campaign, user=site_admin)

    with django_assert_num_queries(4):  # session, user, the count, the page
        response = site_admin_client.get("/api/campaigns?page_size=50")
    assert {(card["like_count"], card["liked_by_me"]) for card in response.json()} == {(3, True)}


# GET /api/campaigns/{id} --------------------------------------------------------------


def test_a_visitor_sees_an_active_campaign_without_the_organizers_email(visitor_client, campaign):
    campaign.pledged_total = 150_000
    campaign.save()

    response = visitor_client.get(f"/api/campaigns/{campaign.pk}")

    assert response.status_code == 200
    body = response.json()
    assert body["title"] == "Church Roof Repair"
    assert body["story"] == "A long story about why this matters."
    assert body["organizer_name"] == "Grace Wanjiku"
    assert body["organizer"] is None
    assert body["status"] == "active"
    assert (body["progress_percent"], body["progress_percent_uncapped"]) == (100, 150)
    assert body["start_date"] == campaign.start_date.isoformat()
    assert body["days_left"] == 30
    assert [instruction["summary"] for instruction in body["payment_instructions"]] == [
        "Paybill 600100, account your pledge code"
    ]
    assert (body["shows_personal_number"], body["offers_stk_push"]) == (False, True)
    assert (body["can_edit"], body["can_share"], body["liked_by_me"], body["like_count"]) == (False, True, False, None)
    assert body["share_url"] == f"http://127.0.0.1:8000/campaign/{campaign.pk}"


def test_what_each_viewer_sees_of_an_active_campaign(clients, campaign, member):
    CampaignLikeFactory.create(campaign=campaign, user=member)

    seen = {viewer: clients[viewer].get(f"/api/campaigns/{campaign.pk}").json() for viewer in ALL_VIEWERS}

    assert {viewer: (body["organizer"], body["can_edit"], body["like_count"]) for viewer, body in seen.items()} == {
        "visitor": (None, False, None),
        "member": (None, False, None),
        "organizer": ("grace@example.com", True, None),
        "admin": ("grace@example.com", True, 1),
    }
    assert seen["member"]["liked_by_me"] is True


@pytest.mark.parametrize("status", [CampaignStatus.PENDING, CampaignStatus.SUSPENDED])
def test_pending_and_suspended_campaigns_are_visible_only_to_their_organizer_and_admins(clients, organizer, status):
    hidden = CampaignFactory.create(organizer=organizer, status=status)

    answers = {viewer: clients[viewer].get(f"/api/campaigns/{hidden.pk}") for viewer in ALL_VIEWERS}

    assert {viewer: answer.status_code for viewer, answer in answers.items()} == {
        "visitor": 404,
        "member": 404,
        "organizer": 200,
        "admin": 200,
    }
    assert answers["visitor"].json() == NOT_FOUND
    assert answers["organizer"].json()["status"] == status
    assert answers["organizer"].json()["can_share"] is False


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("abc", 422),
        ("1.5", 422),
        ("-1", 404),
        ("0", 404),
        ("999999", 404),
        (str(2**63), 404),
        ("9" * 30, 404),
        ("9" * 5000, 422),
    ],
)
def test_bad_campaign_ids_answer_404_or_422_never_500(visitor_client, path, status):
    response = visitor_client.get(f"/api/campaigns/{path}")

    assert response.status_code == status
    assert response.json()["detail"] in {"Campaign not found", "Please correct the errors below"}


@pytest.mark.parametrize("count", [1, 30])
def test_the_detail_takes_seven_queries_for_a_visitor_and_nine_for_a_signed_in_user(
    visitor_client, member_client, member, django_assert_num_queries, count
):
    campaign = CampaignFactory.create()
    CampaignLikeFactory.create_batch(count, campaign=campaign)
    CampaignLikeFactory.create(campaign=campaign, user=member)

    # The campaign with its organizer and likes; its recent pledges, paid donations, paid total and
    # payers, donors; its accounts; its organization's bank account that takes cards.
    with django_assert_num_queries(7):
        assert visitor_client.get(f"/api/campaigns/{campaign.pk}").status_code == 200
    with django_assert_num_queries(9):  # and the session and user first
        assert member_client.get(f"/api/campaigns/{campaign.pk}").json()["liked_by_me"] is True


def test_a_youtube_cover_gives_the_thumbnail_as_cover_image(visitor_client):
    campaign = CampaignFactory.create(image_url="", youtube_id="dQw4w9WgXcQ", media_type=MediaType.YOUTUBE)

    body = visitor_client.get(f"/api/campaigns/{campaign.pk}").json()

    assert body["youtube_id"] == "dQw4w9WgXcQ"
    assert body["youtube_url"] == "https://www.youtube.com/watch?v=dQw4w9WgXcQ"
    assert body["cover_image_url"] == "https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg"


def test_the_page_shows_how_to_pay_into_the_campaigns_own_accounts_never_harambees(visitor_client, settings):
    settings.MPESA_SHORTCODE = "522522"
    campaign = CampaignFactory.create(paybill="600100")
    bank = CollectionAccountFactory.create(
        organization=campaign.organization,
        kind="bank",
        paybill_number="",
        bank_name="KCB",
        account_name="St Peter's",
        account_number="1100223344",
        is_default=False,
    )
    link_account(campaign, bank)

    body = visitor_client.get(f"/api/campaigns/{campaign.pk}").json()

    assert [instruction["summary"] for instruction in body["payment_instructions"]] == [
        "Paybill 600100, account your pledge code",
        "KCB account 1100223344 (St Peter's), reference your pledge code",
    ]
    assert body["offers_stk_push"] is True
    assert "522522" not in json.dumps(body)


def test_a_legacy_personal_number_is_still_shown_and_its_team_warned(visitor_client):
    phone = {"method": "mpesa", "details": {"phone_number": "+254712345678"}}
    campaign = CampaignFactory.create(payment_options=[phone])

    body = visitor_client.get(f"/api/campaigns/{campaign.pk}").json()

    assert [(i["method"], i["summary"]) for i in body["payment_instructions"]] == [
        ("mpesa", "Send Money to +254712345678")
    ]
    assert (body["shows_personal_number"], body["offers_stk_push"]) == (True, False)


# Likes ------------------------------------------------------------------------------


def test_liking_needs_a_signed_in_user(visitor_client, campaign):
    for method in (visitor_client.post, visitor_client.delete):
        response = method(f"/api/campaigns/{campaign.pk}/likes")
        assert response.status_code == 401
        assert response.json() == SIGN_IN
    assert not CampaignLike.objects.exists()


def test_liking_twice_keeps_one_like_and_unliking_twice_is_harmless(member_client, member, campaign):
    first = member_client.post(f"/api/campaigns/{campaign.pk}/likes")
    second = member_client.post(f"/api/campaigns/{campaign.pk}/likes")

    assert first.status_code == second.status_code == 200
    assert second.json() == {"liked": True, "like_count": None}
    assert CampaignLike.objects.filter(campaign=campaign, user=member).count() == 1
    assert member_client.get(f"/api/campaigns/{campaign.pk}").json()["liked_by_me"] is True

    assert member_client.delete(f"/api/campaigns/{campaign.pk}/likes").json() == {"liked": False, "like_count": None}
    assert member_client.delete(f"/api/campaigns/{campaign.pk}/likes").status_code == 200
    assert not CampaignLike.objects.exists()


def test_an_admin_liking_gets_the_like_count(site_admin_client, campaign):
    CampaignLikeFactory.create(campaign=campaign)

    assert site_admin_client.post(f"/api/campaigns/{campaign.pk}/likes").json() == {"liked": True, "like_count": 2}
    assert site_admin_client.delete(f"/api/campaigns/{campaign.pk}/likes").json() == {"liked": False, "like_count": 1}


def test_hidden_or_missing_campaigns_cannot_be_liked(member_client, pending_campaign):
    assert member_client.post(f"/api/campaigns/{pending_campaign.pk}/likes").status_code == 404
    assert member_client.post("/api/campaigns/999999/likes").status_code == 404
    assert member_client.post("/api/campaigns/abc/likes").status_code == 422
    assert not CampaignLike.objects.exists()


def test_liking_without_the_csrf_token_is_refused(member_client, campaign):
    response = member_client.post(f"/api/campaigns/{campaign.pk}/likes", HTTP_X_CSRFTOKEN="wrong")

    assert response.status_code == 403
    assert not CampaignLike.objects.exists()


# PATCH /api/campaigns/{id} ------------------------------------------------------------

EDIT = {
    "title": "New Roof for St Peter's",
    "description": "Iron sheets and trusses.",
    "goal": 350_000,
    "category": "faith",
    "story": "The long rains took half the roof.",
}


@pytest.mark.parametrize("editor", ["organizer", "admin"])
def test_the_organizer_and_admins_can_edit_a_campaign(clients, campaign, editor):
    response = clients[editor].patch(f"/api/campaigns/{campaign.pk}", EDIT)

    assert response.status_code == 200
    body = response.json()
    assert {field: body[field] for field in EDIT} == EDIT
    campaign.refresh_from_db()
    assert (campaign.title, campaign.goal, campaign.category) == ("New Roof for St Peter's", 350_000, "faith")


def test_the_edit_page_changes_the_cover_and_leaves_other_fields(organizer_client, campaign):
    response = organizer_client.patch(
        f"/api/campaigns/{campaign.pk}",
        {"image_url": "", "youtube_url": "https://youtu.be/dQw4w9WgXcQ", "title": "Roof"},
    )

    assert response.status_code == 200
    campaign.refresh_from_db()
    assert (campaign.title, campaign.story, campaign.category) == (
        "Roof",
        "A long story about why this matters.",
        "church",
    )
    assert (campaign.image_url, campaign.youtube_id, campaign.media_type) == ("", "dQw4w9WgXcQ", "youtube")


def test_a_member_cannot_edit_someone_elses_campaign(member_client, campaign):
    response = member_client.patch(f"/api/campaigns/{campaign.pk}", EDIT)

    assert response.status_code == 403
    assert response.json()["detail"] == NOT_ORGANIZER
    campaign.refresh_from_db()
    assert campaign.title == "Church Roof Repair"


def test_a_visitor_cannot_edit(visitor_client, campaign):
    response = visitor_client.patch(f"/api/campaigns/{campaign.pk}", EDIT)

    assert response.status_code == 401
    assert response.json() == SIGN_IN


def test_a_member_editing_a_hidden_campaign_gets_404(member_client, pending_campaign):
    assert member_client.patch(f"/api/campaigns/{pending_campaign.pk}", EDIT).status_code == 404


def test_the_organizer_can_edit_a_pending_campaign(organizer_client, pending_campaign):
    assert organizer_client.patch(f"/api/campaigns/{pending_campaign.pk}", EDIT).status_code == 200


def test_editing_never_changes_id_status_organizer_or_totals(organizer_client, campaign, member):
    campaign.pledged_total = 5_000
    campaign.save()

    response = organizer_client.patch(
        f"/api/campaigns/{campaign.pk}",
        {**EDIT, "id": 999, "status": "closed", "organizer": member.email, "pledged_total": 0},
    )

    assert response.status_code == 200
    assert response.json()["id"] == campaign.pk
    campaign.refresh_from_db()
    assert (campaign.status, campaign.organizer_id, campaign.pledged_total) == ("active", campaign.organizer_id, 5_000)


def test_edit_validation_errors_name_each_field_and_save_nothing(organizer_client, campaign):
    response = organizer_client.patch(
        f"/api/campaigns/{campaign.pk}",
        {
            "title": " ",
            "description": "",
            "goal": 0,
            "category": "",
            "story": "",
            "image_url": "javascript:alert(1)",
            "youtube_url": "https://vimeo.com/123",
        },
    )

    assert response.status_code == 422
    assert response.json() == {
        "detail": "Please correct the errors below",
        "code": "invalid",
        "field_errors": {
            "title": "Title is required",
            "description": "Description is required",
            "story": "Story is required",
            "goal": "Goal must be a whole number of at least 1",
            "category": "Category is required",
            "image_url": "Please enter a valid image URL starting with http:// or https://",
            "youtube_url": "Please enter a valid YouTube link.",
        },
    }
    campaign.refresh_from_db()
    assert campaign.title == "Church Roof Repair"


@pytest.mark.parametrize(
    ("payload", "field", "message"),
    [
        ({"goal": 1.5}, "goal", "Input should be a valid integer, got a number with a fractional part"),
        ({"goal": "many"}, "goal", "Input should be a valid integer, unable to parse string as an integer"),
        ({"goal": 1_000_000_001}, "goal", "Goal must be at most 1,000,000,000"),
        ({"category": "astrology"}, "category", "Please choose a category from the list"),
        ({"title": "x" * 201}, "title", "Please keep the title under 200 characters."),
    ],
)
def test_edit_rejects_out_of_range_values(organizer_client, campaign, payload, field, message):
    response = organizer_client.patch(f"/api/campaigns/{campaign.pk}", payload)

    assert response.status_code == 422
    assert response.json()["field_errors"] == {field: message}


def test_a_goal_of_one_shilling_is_allowed(organizer_client, campaign):
    assert organizer_client.patch(f"/api/campaigns/{campaign.pk}", {"goal": 1}).json()["goal"] == 1


# POST /api/campaigns/{id}/status ------------------------------------------------------


def test_an_admin_activates_a_pending_campaign(site_admin_client, pending_campaign, visitor_client):
    response = site_admin_client.post(f"/api/campaigns/{pending_campaign.pk}/status", {"status": "active"})

    assert response.status_code == 200
    assert response.json()["status"] == "active"
    assert visitor_client.get(f"/api/campaigns/{pending_campaign.pk}").status_code == 200


def test_an_admin_closes_a_campaign_whose_page_stays_for_its_pledgers(site_admin_client, campaign, visitor_client):
    assert site_admin_client.post(f"/api/campaigns/{campaign.pk}/status", {"status": "closed"}).status_code == 200
    assert visitor_client.get(f"/api/campaigns/{campaign.pk}").json()["status"] == "closed"
    assert ids(visitor_client.get("/api/campaigns")) == []


def test_an_admin_suspends_a_campaign_with_the_reason_its_organizer_sees(
    site_admin_client, campaign, visitor_client, organizer_client
):
    response = site_admin_client.post(
        f"/api/campaigns/{campaign.pk}/status", {"status": "suspended", "reason": " Bank details unverified "}
    )

    assert response.json()["status"] == "suspended"
    campaign.refresh_from_db()
    assert (campaign.status, campaign.suspension_reason) == ("suspended", "Bank details unverified")
    assert visitor_client.get(f"/api/campaigns/{campaign.pk}").status_code == 404
    assert organizer_client.get(f"/api/campaigns/{campaign.pk}").status_code == 200


def test_a_suspension_needs_a_reason(site_admin_client, campaign):
    response = site_admin_client.post(f"/api/campaigns/{campaign.pk}/status", {"status": "suspended", "reason": " "})

    assert response.status_code == 422
    assert response.json()["field_errors"] == {
        "reason": "Please say why the campaign is suspended: its organizer sees it."
    }
    campaign.refresh_from_db()
    assert campaign.status == CampaignStatus.ACTIVE


def test_an_admin_lifts_a_suspension_and_the_reason_goes(site_admin_client, campaign):
    site_admin_client.post(f"/api/campaigns/{campaign.pk}/status", {"status": "suspended", "reason": "Checking"})

    site_admin_client.post(f"/api/campaigns/{campaign.pk}/status", {"status": "active"})

    campaign.refresh_from_db()
    assert (campaign.status, campaign.suspension_reason) == ("active", "")


def test_only_admins_change_a_status(visitor_client, member_client, organizer_client, pending_campaign, campaign):
    assert visitor_client.post(f"/api/campaigns/{campaign.pk}/status", {"status": "closed"}).status_code == 401
    assert member_client.post(f"/api/campaigns/{campaign.pk}/status", {"status": "closed"}).status_code == 403
    denied = organizer_client.post(f"/api/campaigns/{pending_campaign.pk}/status", {"status": "active"})
    assert denied.status_code == 403
    assert denied.json()["detail"] == "Only admins can change a campaign's status."
    assert member_client.post(f"/api/campaigns/{pending_campaign.pk}/status", {"status": "active"}).status_code == 404
    pending_campaign.refresh_from_db()
    campaign.refresh_from_db()
    assert (pending_campaign.status, campaign.status) == ("pending", "active")


def test_an_unknown_status_is_refused(site_admin_client, campaign):
    response = site_admin_client.post(f"/api/campaigns/{campaign.pk}/status", {"status": "archived"})

    assert response.status_code == 422
    assert list(response.json()["field_errors"]) == ["status"]


# GET /api/campaigns/{id}/qr.svg -------------------------------------------------------


def test_an_active_campaign_has_a_qr_code_of_its_link(visitor_client, campaign):
    response = visitor_client.get(f"/api/campaigns/{campaign.pk}/qr.svg")

    assert response.status_code == 200
    assert response["Content-Type"] == "image/svg+xml"
    svg = response.content.decode()
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert "<title>Church Roof Repair</title>" in svg


def test_the_qr_code_encodes_the_share_url(visitor_client, campaign):
    expected = io.BytesIO()
    segno.make(f"http://127.0.0.1:8000/campaign/{campaign.pk}", error="m").save(
        expected, kind="svg", scale=10, border=4, dark="#000000", light="#ffffff", title=campaign.title, xmldecl=False
    )

    assert visitor_client.get(f"/api/campaigns/{campaign.pk}/qr.svg").content == expected.getvalue()


@pytest.mark.parametrize("viewer", ALL_VIEWERS)
def test_campaigns_that_are_not_active_have_no_qr_code(clients, pending_campaign, viewer):
    response = clients[viewer].get(f"/api/campaigns/{pending_campaign.pk}/qr.svg")

    assert response.status_code == 404
    expected = "Only active campaigns can be shared." if viewer in {"organizer", "admin"} else "Campaign not found"
    assert response.json()["detail"] == expected


# GET /api/campaign-categories ---------------------------------------------------------


def test_explore_offers_the_spec_s_categories_then_each_other_category_its_campaigns_have(visitor_client):
    CampaignFactory.create(category="church")
    CampaignFactory.create(category="missionary")
    CampaignFactory.create(category="medical")
    CampaignFactory.create(category="wedding", status=CampaignStatus.PENDING)
    CampaignFactory.create(category="faith", end_date=timezone.localdate() - timedelta(days=1))

    explore = visitor_client.get("/api/campaign-categories").json()["explore"]

    assert [c["value"] for c in explore] == [
        "",
        "medical",
        "education",
        "emergency",
        "animals",
        "community",
        "sports",
        "church",
        "missionary",
    ]
    assert ids(visitor_client.get("/api/campaigns?category=church")) == [Campaign.objects.get(category="church").pk]


def test_explore_lists_legacy_fundraisers_beside_pledge_campaigns(visitor_client, campaign):
    fundraiser = CampaignFactory.create(type=CampaignType.FUNDRAISING)

    cards = visitor_client.get("/api/campaigns").json()

    assert [(card["id"], card["type"]) for card in cards] == [(fundraiser.pk, "fundraising"), (campaign.pk, "pledging")]


def test_the_category_lists_of_each_screen(visitor_client):
    lists = visitor_client.get("/api/campaign-categories").json()

    assert [c["label"] for c in lists["explore"]] == [
        "All",
        "Medical",
        "Education",
        "Emergency",
        "Animals",
        "Community",
        "Sports",
    ]
    assert lists["explore"][0] == {"value": "", "label": "All"}
    assert [c["label"] for c in lists["edit_form"]] == [
        "Education",
        "Medical",
        "Emergency",
        "Animals",
        "Community",
        "Sports",
        "Faith",
        "Business",
        "Other",
    ]
    wizard = [c["label"] for c in lists["wizard"]]
    assert len(wizard) == len(set(wizard)) == 17
    assert wizard.count("Justice") == 1
    assert "Funerals & Memorials" in wizard
