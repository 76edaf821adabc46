from datetime import timedelta

import pytest
from django.contrib.contenttypes.models import ContentType
from django.utils import timezone

from accounts.tests.factories import UserFactory
from campaigns.models import Campaign, CampaignStatus, CampaignType, Draft, DraftToolType, MediaType, WizardFeedback
from campaigns.tests.factories import CampaignFactory
from campaigns.tests.wizard_support import make_subscriber
from campaigns.validators import youtube_id_from_url
from collection_accounts.models import CollectionAccount
from collection_accounts.tests.factories import CollectionAccountFactory
from organizations.models import Membership, Organization

pytestmark = pytest.mark.django_db

PLEDGE_URL = "/api/pledging-campaigns"
FUNDRAISER_URL = "/api/campaigns"
FEEDBACK_URL = "/api/wizard-feedback"
COVER = "/media/uploads/20260301101500-0123456789abcdef.jpg"
STORY = "Our church in Kisumu needs a new roof before the long rains. " * 4
# New accounts as the wizard's payment step sends them (with the fields of other kinds left empty).
TILL = {"kind": "till", "till_number": "5123456"}
BANK = {"kind": "bank", "bank_name": "Equity Bank Kenya Ltd", "account_name": "ACK Kisumu", "account_number": "0123"}
BANK_PAYBILL = {"kind": "paybill_fixed_account", "paybill_number": "247247", "account_number": "0123456789"}
PAYBILL = {"kind": "paybill", "paybill_number": "600100"}
CASH = {"kind": "cash", "location": "Church office, Sundays"}


def in_days(days: int) -> str:
    return (timezone.localdate() + timedelta(days=days)).isoformat()


def pledge_payload(**overrides) -> dict:
    return {
        "title": "  Church Roof  ",
        "category": "church",
        "goal": 250_000,
        "story": STORY,
        "end_date": in_days(60),
        "media_type": "upload",
        "media_url": COVER,
        "collection_accounts": [TILL],
        **overrides,
    }


def fundraiser_payload(**overrides) -> dict:
    return {
        "title": "Medical bills for Baby Neema",
        "category": "health",
        "goal": 80_000,
        "story": STORY,
        "duration_days": 45,
        "media_type": "youtube",
        "media_url": "https://youtu.be/dQw4w9WgXcQ",
        "bank_name": "KCB Bank Kenya Ltd",
        "account_name": "Neema Family",
        "account_no": "1100223344",
        **overrides,
    }


@pytest.fixture
def audit_types_known() -> None:
    """The audit trail's content types, cached per process once looked up: looked up here, so that
    the query counts below do not depend on which test ran first."""
    ContentType.objects.get_for_model(Organization)


def field_errors(answer) -> dict[str, str]:
    assert answer.status_code == 422, answer.content
    return answer.json()["field_errors"]


class TestPledgeCampaignCreate:
    def test_a_non_subscribers_campaign_is_pending_and_organized_by_the_signed_in_user(
        self, signed_in_client, user, django_assert_num_queries, audit_types_known
    ):
        # session, user, savepoint, has_paid, owned organizations, a first one (savepoint, organization,
        # owner, release), its accounts, how many owners and treasurers, the till's number taken?, insert,
        # the till asked for and made under the two-person rule (25, its first keywords too: see
        # collection_accounts.services and organizations.services change_request_submit), link, complete the
        # drafts, release
        with django_assert_num_queries(39):
            answer = signed_in_client.post(PLEDGE_URL, pledge_payload(organizer="someone@else.com", status="active"))

        assert answer.status_code == 201
        campaign = Campaign.objects.get()
        assert answer.json() == {"id": campaign.pk}
        assert campaign.organizer == user
        assert (campaign.status, campaign.type) == (CampaignStatus.PENDING, CampaignType.PLEDGING)
        assert (campaign.title, campaign.category, campaign.goal) == ("Church Roof", "church", 250_000)
        assert (campaign.start_date, campaign.end_date.isoformat()) == (timezone.localdate(), in_days(60))
        assert (campaign.media_type, campaign.image_url, campaign.youtube_id) == (MediaType.IMAGE, COVER, "")
        assert campaign.payment_options == []
        assert [(a.kind, a.till_number, a.organization) for a in campaign.collection_accounts.all()] == [
            ("till", "5123456", campaign.organization)
        ]
        assert campaign.description == STORY.strip()[:100] + "..."

    def test_a_subscribers_campaign_is_active_and_gets_the_organizations_default_account(self, signed_in_client, user):
        make_subscriber(user)
        signed_in_client.post(PLEDGE_URL, pledge_payload(title="First", collection_accounts=[CASH, TILL]))

        answer = signed_in_client.post(PLEDGE_URL, pledge_payload(title="Second", collection_accounts=[]))

        assert answer.status_code == 201
        campaign = Campaign.objects.get(title="Second")
        assert campaign.status == CampaignStatus.ACTIVE
        assert [a.kind for a in campaign.collection_accounts.all()] == ["cash"]

    def test_a_subscriber_who_sends_accounts_still_sends_valid_ones(self, signed_in_client, user):
        make_subscriber(user)

        answer = signed_in_client.post(PLEDGE_URL, pledge_payload(collection_accounts=[{"kind": "cash"}]))

        assert field_errors(answer) == {"collection_accounts.0.location": "This field is required."}

    def test_new_accounts_join_the_organization_in_order_and_existing_ones_are_chosen_by_id(
        self, signed_in_client, user
    ):
        untidy_bank = {**BANK, "account_name": "  ACK Kisumu ", "till_number": "dropped"}
        signed_in_client.post(
            PLEDGE_URL, pledge_payload(title="First", collection_accounts=[untidy_bank, BANK_PAYBILL])
        )
        first = Campaign.objects.get(title="First")
        bank, bank_paybill = first.collection_accounts.order_by("campaign_links__position")

        answer = signed_in_client.post(
            PLEDGE_URL,
            pledge_payload(title="Second", collection_accounts=[PAYBILL, {"account_id": bank.pk}, BANK_PAYBILL]),
        )

        assert answer.status_code == 201, answer.content
        second = Campaign.objects.get(title="Second")
        chosen = list(second.collection_accounts.order_by("campaign_links__position"))
        assert [a.kind for a in chosen] == ["paybill", "bank", "paybill_fixed_account"]
        assert chosen[1:] == [bank, bank_paybill]
        assert (bank.account_name, bank.till_number, bank.is_default) == ("ACK Kisumu", "", True)
        assert CollectionAccount.objects.filter(organization=first.organization).count() == 3

    def test_the_users_open_pledging_drafts_are_completed_and_other_drafts_kept(self, signed_in_client, user):
        pledging = Draft.objects.create(user=user, tool_type=DraftToolType.PLEDGING, current_step=6)
        grant = Draft.objects.create(user=user, tool_type=DraftToolType.GRANT_FUNDING, current_step=3)
        someone_elses = Draft.objects.create(user=UserFactory.create(), tool_type=DraftToolType.PLEDGING)

        signed_in_client.post(PLEDGE_URL, pledge_payload())

        assert [Draft.objects.get(pk=d.pk).is_completed for d in (pledging, grant, someone_elses)] == [
            True,
            False,
            False,
        ]

    def test_signed_out_visitors_cannot_create_campaigns(self, api_client):
        assert api_client.post(PLEDGE_URL, pledge_payload()).status_code == 401
        assert not Campaign.objects.exists()

    @pytest.mark.parametrize(
        ("overrides", "errors"),
        [
            ({"category": ""}, {"category": "Category is required"}),
            # A category of other screens, not offered by the wizard.
            ({"category": "medical"}, {"category": "Please choose a category from the list"}),
            ({"goal": 0}, {"goal": "Goal must be a whole number of at least 1"}),
            ({"goal": -5}, {"goal": "Goal must be a whole number of at least 1"}),
            ({"end_date": None}, {"end_date": "End date is required"}),
            ({"end_date": in_days(-1)}, {"end_date": "End date cannot be in the past"}),
            ({"title": "   "}, {"title": "Title is required"}),
            ({"story": "\n  "}, {"story": "Story is required"}),
            ({"media_url": ""}, {"media_url": "Please upload an image or video."}),
            ({"media_type": "youtube", "media_url": ""}, {"media_url": "Please enter a YouTube link."}),
            (
                {"media_type": "youtube", "media_url": "https://vimeo.com/76979871"},
                {"media_url": "Please enter a valid YouTube link."},
            ),
        ],
    )
    def test_each_wizard_rule_is_checked_again_on_the_server(self, signed_in_client, overrides, errors):
        answer = signed_in_client.post(PLEDGE_URL, pledge_payload(**overrides))

        assert field_errors(answer) == errors
        assert answer.json()["detail"] == "Please correct the errors below"
        assert not Campaign.objects.exists()

    def test_an_end_date_of_today_is_accepted(self, signed_in_client):
        assert signed_in_client.post(PLEDGE_URL, pledge_payload(end_date=in_days(0))).status_code == 201

    def test_a_fractional_goal_is_refused(self, signed_in_client):
        assert "goal" in field_errors(signed_in_client.post(PLEDGE_URL, pledge_payload(goal=10.5)))

    @pytest.mark.parametrize(
        ("accounts", "errors"),
        [
            ([], {"collection_accounts": "Please provide at least one valid payment method to continue."}),
            ([TILL, BANK, PAYBILL, CASH], {"collection_accounts": "You can add at most 3 payment methods."}),
            (
                [TILL, {**TILL, "label": "The same till"}],
                {"collection_accounts.1.account_id": "Each payment method can be used only once."},
            ),
            (
                [{"kind": "bank", "bank_name": "Equity", "account_name": " "}],
                {
                    "collection_accounts.0.account_name": "This field is required.",
                    "collection_accounts.0.account_number": "This field is required.",
                },
            ),
            ([{"label": "Nothing"}], {"collection_accounts.0.account_id": "Please choose a payment method."}),
            (
                [{"account_id": 999_999}],
                {"collection_accounts.0.account_id": "Please choose one of the organization's accounts."},
            ),
            (
                [{"kind": "till", "till_number": "51-23 456"}],
                {"collection_accounts.0.till_number": "Please enter a valid till number (digits only)."},
            ),
            (
                [{"kind": "paybill", "paybill_number": "174379"}],
                {
                    "collection_accounts.0.paybill_number": (
                        "This is Harambee's paybill for its own fees. Please enter your organization's own number."
                    )
                },
            ),
        ],
        ids=["none", "four", "duplicate", "missing-detail", "no-kind", "not-ours", "till", "platform-paybill"],
    )
    def test_collection_accounts_follow_the_wizards_rules(self, signed_in_client, accounts, errors, settings):
        settings.MPESA_SHORTCODE = "174379"

        answer = signed_in_client.post(PLEDGE_URL, pledge_payload(collection_accounts=accounts))

        assert field_errors(answer) == errors
        assert not CollectionAccount.objects.exists()

    def test_a_personal_mpesa_number_is_not_offered_any_more(self, signed_in_client):
        answer = signed_in_client.post(PLEDGE_URL, pledge_payload(collection_accounts=[{"kind": "mpesa"}]))

        assert answer.status_code == 422
        assert not Campaign.objects.exists()

    def test_with_a_treasurer_a_new_account_waits_so_the_wizard_asks_to_choose_one_it_has(self, signed_in_client, user):
        signed_in_client.post(PLEDGE_URL, pledge_payload(title="First", collection_accounts=[BANK]))
        organization = Campaign.objects.get(title="First").organization
        Membership.objects.create(organization=organization, user=UserFactory.create(), role="treasurer")

        refused = signed_in_client.post(PLEDGE_URL, pledge_payload(title="Second", collection_accounts=[BANK, TILL]))
        the_same_bank = signed_in_client.post(PLEDGE_URL, pledge_payload(title="Third", collection_accounts=[BANK]))

        assert field_errors(refused) == {
            "collection_accounts.1.account_id": "A new account needs another owner's or treasurer's approval: add it "
            "under Collection accounts on your organization's page, then choose it here."
        }
        assert the_same_bank.status_code == 201
        assert CollectionAccount.objects.filter(organization=organization).count() == 1

    def test_another_organizations_account_cannot_be_chosen(self, signed_in_client):
        elsewhere = CollectionAccountFactory.create()

        answer = signed_in_client.post(PLEDGE_URL, pledge_payload(collection_accounts=[{"account_id": elsewhere.pk}]))

        assert field_errors(answer) == {
            "collection_accounts.0.account_id": "Please choose one of the organization's accounts."
        }


class TestYoutubeCovers:
    @pytest.mark.parametrize(
        "link",
        [
            "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
            "https://m.youtube.com/watch?feature=share&v=dQw4w9WgXcQ&t=42",
            "https://youtu.be/dQw4w9WgXcQ?si=abc",
            "youtube.com/shorts/dQw4w9WgXcQ",
            "https://www.youtube.com/embed/dQw4w9WgXcQ",
        ],
    )
    def test_watch_short_shorts_and_embed_links_store_the_video_id(self, signed_in_client, link):
        answer = signed_in_client.post(PLEDGE_URL, pledge_payload(media_type="youtube", media_url=link))

        assert answer.status_code == 201
        campaign = Campaign.objects.get()
        assert (campaign.media_type, campaign.youtube_id, campaign.image_url) == (MediaType.YOUTUBE, "dQw4w9WgXcQ", "")

    @pytest.mark.parametrize(
        "link",
        [
            "https://vimeo.com/76979871",
            "https://www.youtube.com/watch?list=PL123",
            "https://youtu.be/short",
            "https://example.com/watch?v=dQw4w9WgXcQ",
            "https://www.youtube.com/channel/UC38IQsAvIsxxjztdMZQtwHA",
        ],
    )
    def test_other_links_are_refused(self, link):
        assert youtube_id_from_url(link) is None


class TestFundraiserCreate:
    def test_the_legacy_wizard_creates_a_fundraiser_with_a_bank_option(
        self, signed_in_client, user, django_assert_num_queries, audit_types_known
    ):
        # session, user, savepoint, has_paid, owned organizations, a first one (savepoint, organization,
        # owner, release), insert, its bank account asked for and made under the two-person rule (21, its
        # first keywords too: see collection_accounts.services and organizations.services
        # change_request_submit), link, release
        with django_assert_num_queries(33):
            answer = signed_in_client.post(FUNDRAISER_URL, fundraiser_payload(description="ignored"))

        assert answer.status_code == 201
        campaign = Campaign.objects.get()
        assert answer.json() == {"ok": True, "id": campaign.pk}
        assert (campaign.type, campaign.status, campaign.organizer) == (
            CampaignType.FUNDRAISING,
            CampaignStatus.PENDING,
            user,
        )
        assert (campaign.start_date, campaign.end_date.isoformat()) == (timezone.localdate(), in_days(45))
        assert (campaign.media_type, campaign.youtube_id) == (MediaType.YOUTUBE, "dQw4w9WgXcQ")
        assert [
            (a.kind, a.bank_name, a.account_name, a.account_number) for a in campaign.collection_accounts.all()
        ] == [("bank", "KCB Bank Kenya Ltd", "Neema Family", "1100223344")]

    def test_the_description_is_the_first_100_characters_of_the_story_and_dots(self, signed_in_client):
        story = "A" * 99 + "BC" + " and the rest of a long story"

        signed_in_client.post(FUNDRAISER_URL, fundraiser_payload(story=story))

        assert Campaign.objects.get().description == "A" * 99 + "B..."

    def test_a_short_story_gets_the_dots_too(self, signed_in_client):
        signed_in_client.post(FUNDRAISER_URL, fundraiser_payload(story="Help Neema."))

        assert Campaign.objects.get().description == "Help Neema...."

    def test_the_duration_defaults_to_30_days(self, signed_in_client):
        payload = fundraiser_payload()
        del payload["duration_days"]

        signed_in_client.post(FUNDRAISER_URL, payload)

        assert Campaign.objects.get().end_date.isoformat() == in_days(30)

    def test_a_subscribers_fundraiser_is_active(self, signed_in_client, user):
        make_subscriber(user)

        signed_in_client.post(FUNDRAISER_URL, fundraiser_payload())

        assert Campaign.objects.get().status == CampaignStatus.ACTIVE

    @pytest.mark.parametrize(
        ("overrides", "errors"),
        [
            ({"bank_name": ""}, {"bank_name": "Bank name is required"}),
            ({"bank_name": "Bank of Nowhere"}, {"bank_name": "Please choose a bank from the list"}),
            ({"account_name": " "}, {"account_name": "Account name is required"}),
            ({"account_no": ""}, {"account_no": "Account number is required"}),
            ({"duration_days": 0}, {"duration_days": "Duration must be between 1 and 365 days"}),
            ({"duration_days": 366}, {"duration_days": "Duration must be between 1 and 365 days"}),
            ({"title": ""}, {"title": "Title is required"}),
            ({"goal": 0}, {"goal": "Goal must be a whole number of at least 1"}),
        ],
    )
    def test_bank_details_and_the_wizard_fields_are_required(self, signed_in_client, overrides, errors):
        assert field_errors(signed_in_client.post(FUNDRAISER_URL, fundraiser_payload(**overrides))) == errors

    def test_listing_campaigns_still_works_on_the_same_path(self, api_client):
        CampaignFactory.create()

        assert len(api_client.get(FUNDRAISER_URL).json()) == 1

    def test_signed_out_visitors_cannot_create_fundraisers(self, api_client):
        assert api_client.post(FUNDRAISER_URL, fundraiser_payload()).status_code == 401


class TestWizardFeedback:
    def test_the_feedback_is_saved_with_the_user_and_their_campaign(self, signed_in_client, user):
        campaign = CampaignFactory.create(organizer=user)

        answer = signed_in_client.post(
            FEEDBACK_URL,
            {
                "campaign_id": campaign.pk,
                "liked": "Quick to set up",
                "confusing": "",
                "features_wanted": "SMS reminders",
                "rating": 5,
                "wants_interview": True,
                "contact": " 0712345678 ",
            },
        )

        assert answer.status_code == 201
        feedback = WizardFeedback.objects.get()
        assert answer.json() == {"id": feedback.pk}
        assert (feedback.user, feedback.campaign, feedback.rating, feedback.contact) == (
            user,
            campaign,
            5,
            "0712345678",
        )
        assert (feedback.liked, feedback.features_wanted) == ("Quick to set up", "SMS reminders")

    def test_everything_is_optional_and_the_rating_defaults_to_3(self, signed_in_client):
        assert signed_in_client.post(FEEDBACK_URL, {}).status_code == 201
        assert WizardFeedback.objects.get().rating == 3

    def test_a_contact_is_kept_only_with_the_interview_box_ticked(self, signed_in_client):
        signed_in_client.post(FEEDBACK_URL, {"wants_interview": False, "contact": "me@example.com"})

        assert WizardFeedback.objects.get().contact == ""

    @pytest.mark.parametrize(
        ("body", "errors"),
        [
            ({"rating": 0}, {"rating": "Please choose a rating from 1 to 5."}),
            ({"rating": 6}, {"rating": "Please choose a rating from 1 to 5."}),
            ({"wants_interview": True}, {"contact": "Please enter your e-mail address or phone number."}),
            (
                {"wants_interview": True, "contact": "call me"},
                {"contact": "Please enter your e-mail address or phone number."},
            ),
            ({"liked": "x" * 2001}, {"liked": "Please keep this under 2,000 characters."}),
        ],
    )
    def test_the_rating_and_the_interview_contact_are_checked(self, signed_in_client, body, errors):
        assert field_errors(signed_in_client.post(FEEDBACK_URL, body)) == errors

    def test_someone_elses_campaign_is_not_found(self, signed_in_client):
        other = CampaignFactory.create()

        assert signed_in_client.post(FEEDBACK_URL, {"campaign_id": other.pk}).status_code == 404

    def test_the_admin_lists_wizard_feedback(self, make_api_client, user):
        WizardFeedback.objects.create(user=user, liked="The steps", rating=4)
        admin = UserFactory.create(is_staff=True, is_superuser=True)
        client = make_api_client(signed_in_as=admin)

        answer = client.get("/admin/campaigns/wizardfeedback/")

        assert answer.status_code == 200
        assert "The steps" in answer.content.decode()
