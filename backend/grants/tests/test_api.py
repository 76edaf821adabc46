from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.tests.factories import UserFactory
from grants.models import Grant, GrantApplication, OrganizationProfile
from grants.selectors import grant_good_match_count
from grants.tests.factories import GrantApplicationFactory, GrantFactory, OrganizationProfileFactory, subscribe

pytestmark = pytest.mark.django_db

PROFILE_URL = "/api/organizations/profile"
ANSWERS = {
    "organization_name": "Hope Community Church",
    "mission": "We serve families in Nairobi through schools and the gospel.",
    "focus_areas": "Education, Youth",
    "organization_type": "Church",
    "location": "Nairobi, Kenya",
    "funding_range": "$10,000 - $50,000",
}


def put(client, url, data):
    return client.put(url, data, content_type="application/json")


@pytest.fixture
def subscriber(user):
    subscribe(user)
    return user


@pytest.fixture
def no_sample_grants(db):
    """Tests of the filters use their own grants, not the eight the data migration adds."""
    Grant.objects.all().delete()


def titles(answer) -> list[str]:
    return [grant["title"] for grant in answer.json()["results"]]


class TestOrganizationProfile:
    def test_it_is_missing_until_the_questionnaire_is_complete(self, signed_in_client):
        answer = signed_in_client.get(PROFILE_URL)

        assert answer.status_code == 404
        assert answer.json()["code"] == "no_profile"

    def test_completing_the_questionnaire_saves_the_trimmed_answers(self, signed_in_client, user):
        answer = put(signed_in_client, PROFILE_URL, {**ANSWERS, "organization_name": "  Hope Community Church \n"})

        assert answer.status_code == 200
        assert signed_in_client.get(PROFILE_URL).json() | {"updated_at": None} == ANSWERS | {"updated_at": None}
        assert OrganizationProfile.objects.get(user=user).organization_name == "Hope Community Church"

    def test_the_profile_can_be_edited_later(self, signed_in_client, user):
        put(signed_in_client, PROFILE_URL, ANSWERS)

        answer = put(signed_in_client, PROFILE_URL, {**ANSWERS, "focus_areas": "Clean water"})

        assert answer.json()["focus_areas"] == "Clean water"
        assert OrganizationProfile.objects.filter(user=user).count() == 1

    @pytest.mark.parametrize("question", list(ANSWERS))
    @pytest.mark.parametrize("blank", ["", "   ", "\n\t"])
    def test_every_answer_must_be_non_blank_after_trimming(self, signed_in_client, question, blank):
        answer = put(signed_in_client, PROFILE_URL, {**ANSWERS, question: blank})

        assert answer.status_code == 422
        assert answer.json()["field_errors"] == {question: "Please answer this question."}
        assert not OrganizationProfile.objects.exists()

    def test_an_overlong_answer_is_refused(self, signed_in_client):
        answer = put(signed_in_client, PROFILE_URL, {**ANSWERS, "organization_name": "x" * 201})

        assert answer.json()["field_errors"] == {"organization_name": "Please keep this answer under 200 characters."}

    def test_it_needs_a_signed_in_user(self, api_client):
        assert api_client.get(PROFILE_URL).status_code == 401
        assert put(api_client, PROFILE_URL, ANSWERS).status_code == 401

    def test_questionnaire_progress_is_kept_as_a_grant_funding_draft_and_resumed(self, signed_in_client):
        created = signed_in_client.post(
            "/api/campaign-drafts",
            {"tool_type": "grant_funding", "step_data": {"organization_name": "Hope"}, "current_step": 1},
        ).json()
        put(
            signed_in_client,
            f"/api/campaign-drafts/{created['id']}",
            {"step_data": {"mission": "x"}, "current_step": 2},
        )

        resumed = signed_in_client.get("/api/campaign-drafts?tool_type=grant_funding").json()

        assert [(d["id"], d["current_step"], d["step_data"]) for d in resumed] == [(created["id"], 2, {"mission": "x"})]
        assert signed_in_client.get("/api/campaign-drafts?tool_type=pledging").json() == []


class TestPaymentGate:
    def test_a_user_without_a_subscription_cannot_search(self, signed_in_client):
        answer = signed_in_client.get("/api/grants")

        assert answer.status_code == 403
        assert answer.json()["code"] == "subscription_required"
        assert "please complete your payment" in answer.json()["detail"].lower()

    def test_a_lapsed_subscription_does_not_open_the_search(self, signed_in_client, user):
        subscribe(user, days_left=-1)

        assert signed_in_client.get("/api/grants").status_code == 403

    def test_a_subscriber_can_search(self, signed_in_client, subscriber):
        assert signed_in_client.get("/api/grants").status_code == 200

    def test_a_user_without_a_subscription_cannot_track_grants(self, signed_in_client):
        grant = GrantFactory.create()

        answer = put(signed_in_client, f"/api/grants/{grant.pk}/application", {"state": "applied"})

        assert answer.status_code == 403
        assert not GrantApplication.objects.exists()

    def test_visitors_are_asked_to_sign_in(self, api_client):
        assert api_client.get("/api/grants").status_code == 401


class TestSampleGrants:
    def test_the_eight_sample_grants_cover_every_bracket_and_both_sides_of_25000(self, signed_in_client, subscriber):
        answer = signed_in_client.get("/api/grants").json()

        assert answer["count"] == 8
        amounts = {grant["amount_usd"] for grant in answer["results"]}
        assert {25_000, 25_001} <= amounts
        for bracket in answer["brackets"]:
            assert signed_in_client.get(f"/api/grants?bracket={bracket['value']}").json()["count"] >= 1
        assert any(grant["deadline"] < "2026-11-22" for grant in answer["results"])
        assert all(grant["website"].startswith("https://") for grant in answer["results"])

    def test_the_samples_are_marked_and_apply_now_opens_the_sample_page_not_example_org(
        self, signed_in_client, subscriber
    ):
        results = signed_in_client.get("/api/grants").json()["results"]

        assert {(grant["is_sample"], grant["apply_url"]) for grant in results} == {(True, "/grantfunding/sample-grant")}

    def test_a_real_grant_applies_at_its_application_page_and_a_retired_one_is_not_offered(
        self, signed_in_client, subscriber
    ):
        GrantFactory.create(
            title="Real", website="https://real.example.com", application_url="https://real.example.com/apply"
        )
        GrantFactory.create(title="Retired", retired_at=timezone.now())

        results = {grant["title"]: grant for grant in signed_in_client.get("/api/grants").json()["results"]}

        assert (results["Real"]["is_sample"], results["Real"]["apply_url"]) == (False, "https://real.example.com/apply")
        assert "Retired" not in results


@pytest.mark.usefixtures("no_sample_grants")
class TestFilters:
    @pytest.mark.parametrize(
        ("bracket", "expected"),
        [
            ("0-25000", [25_000]),
            ("25001-50000", [25_001, 50_000]),
            ("50001-100000", [50_001, 100_000]),
            ("100001-500000", [100_001, 500_000]),
        ],
    )
    def test_amount_brackets_include_both_ends(self, signed_in_client, subscriber, bracket, expected):
        for amount in (25_000, 25_001, 50_000, 50_001, 100_000, 100_001, 500_000, 500_001):
            GrantFactory.create(amount_usd=amount)

        answer = signed_in_client.get(f"/api/grants?bracket={bracket}")

        assert sorted(grant["amount_usd"] for grant in answer.json()["results"]) == expected

    def test_an_unknown_bracket_is_refused(self, signed_in_client, subscriber):
        assert signed_in_client.get("/api/grants?bracket=1-2").status_code == 422

    def test_category_filter(self, signed_in_client, subscriber):
        GrantFactory.create(title="Schools", category="education")
        GrantFactory.create(title="Boreholes", category="water_sanitation")

        assert titles(signed_in_client.get("/api/grants?category=education")) == ["Schools"]
        assert len(titles(signed_in_client.get("/api/grants?category="))) == 2

    def test_location_filter_ignores_case(self, signed_in_client, subscriber):
        GrantFactory.create(title="Local", location="Nairobi, Kenya")
        GrantFactory.create(title="Regional", location="East Africa")

        assert titles(signed_in_client.get("/api/grants?location=east africa")) == ["Regional"]

    @pytest.mark.parametrize("q", ["borehole", "MAJI", "rainwater tanks", "Water  FOR"])
    def test_text_search_covers_title_organization_and_description(self, signed_in_client, subscriber, q):
        GrantFactory.create(
            title="Water for Schools", organization="Maji Trust", description="Boreholes and rainwater tanks."
        )
        GrantFactory.create(title="Other", organization="Elimu", description="Books.")

        assert titles(signed_in_client.get("/api/grants", {"q": q})) == ["Water for Schools"]

    def test_every_word_of_the_search_must_appear(self, signed_in_client, subscriber):
        GrantFactory.create(title="Water for Schools", description="Boreholes.")

        assert titles(signed_in_client.get("/api/grants", {"q": "water clinics"})) == []

    def test_filters_combine(self, signed_in_client, subscriber):
        GrantFactory.create(title="Match", category="education", amount_usd=20_000, location="Kenya")
        GrantFactory.create(title="Too big", category="education", amount_usd=30_000, location="Kenya")
        GrantFactory.create(title="Elsewhere", category="education", amount_usd=20_000, location="Uganda")

        answer = signed_in_client.get("/api/grants?category=education&bracket=0-25000&location=Kenya")

        assert titles(answer) == ["Match"]
        assert answer.json()["count"] == 1

    def test_the_filter_choices_list_what_the_grants_use(self, signed_in_client, subscriber):
        GrantFactory.create(category="education", location="kenya")
        GrantFactory.create(category="health", location="East Africa")

        answer = signed_in_client.get("/api/grants?category=health").json()

        assert [c["value"] for c in answer["categories"]] == ["education", "health"]
        assert answer["locations"] == ["East Africa", "kenya"]
        assert [b["label"] for b in answer["brackets"]] == [
            "Up to $25,000",
            "$25,001 - $50,000",
            "$50,001 - $100,000",
            "$100,001 - $500,000",
        ]


@pytest.mark.usefixtures("no_sample_grants")
class TestRanking:
    def test_best_match_first_and_past_deadlines_last(self, signed_in_client, subscriber):
        OrganizationProfileFactory.create(user=subscriber, focus_areas="Education", location="Kenya")
        today = timezone.localdate()
        GrantFactory.create(title="Unrelated", location="Peru")
        GrantFactory.create(title="Closed but perfect", category="education", deadline=today - timedelta(days=1))
        GrantFactory.create(title="Perfect", category="education")
        GrantFactory.create(title="Nearby", location="Kenya")

        results = signed_in_client.get("/api/grants").json()["results"]

        assert [r["title"] for r in results] == ["Perfect", "Nearby", "Unrelated", "Closed but perfect"]
        assert [r["past_deadline"] for r in results] == [False, False, False, True]
        assert results[0]["match_score"] == 90
        assert results[0]["match_reasons"] == [
            "Matches your focus on education",
            "In your location",
            "Within your funding range",
        ]

    def test_a_deadline_today_is_not_past(self, signed_in_client, subscriber):
        GrantFactory.create(deadline=timezone.localdate())

        assert signed_in_client.get("/api/grants").json()["results"][0]["past_deadline"] is False

    def test_without_a_profile_grants_are_listed_unscored_by_deadline(self, signed_in_client, subscriber):
        today = timezone.localdate()
        GrantFactory.create(title="Later", deadline=today + timedelta(days=9))
        GrantFactory.create(title="Sooner", deadline=today + timedelta(days=2))

        answer = signed_in_client.get("/api/grants")

        assert titles(answer) == ["Sooner", "Later"]
        assert {r["match_score"] for r in answer.json()["results"]} == {0}

    def test_the_number_of_queries_does_not_grow_with_the_grants(
        self, signed_in_client, subscriber, django_assert_num_queries
    ):
        OrganizationProfileFactory.create(user=subscriber)
        for size in (2, 12):
            GrantFactory.create_batch(size - Grant.objects.count())
            for grant in Grant.objects.all()[:2]:
                GrantApplication.objects.get_or_create(user=subscriber, grant=grant, defaults={"state": "saved"})
            # session, user, subscription, grants, profile, applications, filter choices
            with django_assert_num_queries(7):
                answer = signed_in_client.get("/api/grants?q=grant")
            assert answer.json()["count"] == size


@pytest.mark.usefixtures("no_sample_grants")
class TestApplications:
    def test_marking_a_grant_shows_in_the_search(self, signed_in_client, subscriber):
        grant = GrantFactory.create()

        answer = put(signed_in_client, f"/api/grants/{grant.pk}/application", {"state": "applied", "note": " Sent "})

        assert answer.status_code == 200
        assert answer.json() | {"updated_at": None} == {
            "grant_id": grant.pk,
            "state": "applied",
            "note": "Sent",
            "updated_at": None,
        }
        result = signed_in_client.get("/api/grants").json()["results"][0]
        assert (result["application_state"], result["application_note"]) == ("applied", "Sent")

    def test_changing_the_state_updates_the_one_record(self, signed_in_client, subscriber):
        grant = GrantFactory.create()
        put(signed_in_client, f"/api/grants/{grant.pk}/application", {"state": "saved"})

        put(signed_in_client, f"/api/grants/{grant.pk}/application", {"state": "awarded", "note": "Yes!"})

        assert list(GrantApplication.objects.values_list("state", "note")) == [("awarded", "Yes!")]

    def test_users_only_see_and_change_their_own_records(self, make_api_client, subscriber):
        grant = GrantFactory.create()
        other = UserFactory.create()
        subscribe(other)
        GrantApplicationFactory.create(user=other, grant=grant, state="awarded", note="Theirs")
        mine = make_api_client(signed_in_as=subscriber)

        assert mine.get("/api/grants").json()["results"][0]["application_state"] is None
        put(mine, f"/api/grants/{grant.pk}/application", {"state": "declined"})

        assert GrantApplication.objects.get(user=other).state == "awarded"
        assert GrantApplication.objects.get(user=subscriber).state == "declined"
        theirs = make_api_client(signed_in_as=other).get("/api/grants").json()["results"][0]
        assert (theirs["application_state"], theirs["application_note"]) == ("awarded", "Theirs")

    @pytest.mark.parametrize(
        ("body", "field"),
        [({"state": "won"}, "state"), ({"state": ""}, "state"), ({"state": "saved", "note": "x" * 1001}, "note")],
    )
    def test_invalid_input_is_refused(self, signed_in_client, subscriber, body, field):
        grant = GrantFactory.create()

        answer = put(signed_in_client, f"/api/grants/{grant.pk}/application", body)

        assert answer.status_code == 422
        assert list(answer.json()["field_errors"]) == [field]

    def test_an_unknown_grant_is_not_found(self, signed_in_client, subscriber):
        assert put(signed_in_client, "/api/grants/999999/application", {"state": "saved"}).status_code == 404


@pytest.mark.usefixtures("no_sample_grants")
class TestGoodMatchCount:
    def test_counts_open_grants_with_a_good_score(self, user):
        OrganizationProfileFactory.create(user=user, focus_areas="Education", location="Kenya")
        GrantFactory.create(category="education")
        GrantFactory.create(category="education", location="Peru", amount_usd=900_000)
        GrantFactory.create(category="education", deadline=timezone.localdate() - timedelta(days=1))

        assert grant_good_match_count(user=user) == 1

    def test_is_zero_without_a_profile(self, user):
        GrantFactory.create(category="education")

        assert grant_good_match_count(user=user) == 0

    def test_the_dashboard_shows_the_count(self, signed_in_client, user):
        OrganizationProfileFactory.create(user=user, focus_areas="Education", location="Kenya")
        GrantFactory.create_batch(2, category="education")

        assert signed_in_client.get("/api/dashboard").json()["grant_matches"] == 2
