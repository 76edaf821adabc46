import pytest

from campaigns import services
from campaigns.models import CampaignLike, CampaignStatus, MediaType
from campaigns.tests.factories import CampaignFactory
from common.errors import FieldValidationError, PermissionDeniedError

pytestmark = pytest.mark.django_db


def test_fields_left_as_none_are_unchanged(campaign, organizer):
    services.campaign_update(campaign=campaign, user=organizer, title="  New title  ")

    campaign.refresh_from_db()
    assert campaign.title == "New title"
    assert campaign.story == "A long story about why this matters."


def test_an_uploaded_video_url_makes_a_video_cover(campaign, organizer):
    services.campaign_update(campaign=campaign, user=organizer, image_url="/media/clip.webm", youtube_url="")

    assert campaign.media_type == MediaType.VIDEO


def test_removing_the_youtube_link_falls_back_to_the_image(organizer):
    campaign = CampaignFactory.create(organizer=organizer, youtube_id="dQw4w9WgXcQ", media_type=MediaType.YOUTUBE)

    services.campaign_update(campaign=campaign, user=organizer, youtube_url="")

    campaign.refresh_from_db()
    assert (campaign.youtube_id, campaign.media_type) == ("", MediaType.IMAGE)


def test_an_edit_does_not_overwrite_counters_changed_meanwhile(campaign, organizer):
    stale = type(campaign).objects.get(pk=campaign.pk)
    type(campaign).objects.filter(pk=campaign.pk).update(pledged_total=7_000)

    services.campaign_update(campaign=stale, user=organizer, title="Edited")

    campaign.refresh_from_db()
    assert (campaign.title, campaign.pledged_total) == ("Edited", 7_000)


def test_someone_else_cannot_edit(campaign, member):
    with pytest.raises(PermissionDeniedError):
        services.campaign_update(campaign=campaign, user=member, title="Mine now")


def test_validation_names_the_field(campaign, organizer):
    with pytest.raises(FieldValidationError) as error:
        services.campaign_update(campaign=campaign, user=organizer, goal=-5)

    assert error.value.field_errors == {"goal": "Goal must be a whole number of at least 1"}


def test_likes_are_idempotent(campaign, member):
    services.campaign_like(campaign=campaign, user=member)
    services.campaign_like(campaign=campaign, user=member)
    assert CampaignLike.objects.count() == 1

    services.campaign_unlike(campaign=campaign, user=member)
    services.campaign_unlike(campaign=campaign, user=member)
    assert CampaignLike.objects.count() == 0


def test_the_system_activates_a_campaign_without_an_admin(pending_campaign):
    services.campaign_activate(campaign=pending_campaign)

    pending_campaign.refresh_from_db()
    assert pending_campaign.status == CampaignStatus.ACTIVE


def test_an_admin_closes_a_campaign(campaign, site_admin):
    services.campaign_close(campaign=campaign, closed_by=site_admin)

    campaign.refresh_from_db()
    assert campaign.status == CampaignStatus.CLOSED


def test_organizers_cannot_activate_their_own_campaign(pending_campaign, organizer):
    with pytest.raises(PermissionDeniedError):
        services.campaign_activate(campaign=pending_campaign, activated_by=organizer)

    pending_campaign.refresh_from_db()
    assert pending_campaign.status == CampaignStatus.PENDING
