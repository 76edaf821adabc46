from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError
from django.utils import timezone

from accounts.tests.factories import UserFactory
from campaigns.models import Campaign, CampaignStatus, MediaType
from campaigns.tests.factories import CampaignFactory, CampaignLikeFactory
from organizations.models import Membership
from organizations.roles import Role

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("pledged", "goal", "capped", "uncapped"),
    [(0, 100, 0, 0), (999, 1000, 99, 99), (1000, 1000, 100, 100), (2500, 1000, 100, 250), (1, 3, 33, 33)],
)
def test_progress_is_pledged_over_goal_rounded_down_and_capped_for_bars(pledged, goal, capped, uncapped):
    campaign = Campaign(pledged_total=pledged, goal=goal)

    assert (campaign.progress_percent, campaign.progress_percent_uncapped) == (capped, uncapped)


@pytest.mark.parametrize(("offset", "days_left"), [(10, 10), (0, 0), (-3, 0)])
def test_days_left_counts_to_the_end_date_and_stops_at_zero(offset, days_left):
    assert Campaign(end_date=timezone.localdate() + timedelta(days=offset)).days_left == days_left


@pytest.mark.django_db
def test_visibility_and_editing_rights_follow_the_roles_in_the_organization():
    active = CampaignFactory.create()
    pending = CampaignFactory.create(organizer=active.organizer, status=CampaignStatus.PENDING)
    members = {role: UserFactory.create() for role in Role}
    for role, user in members.items():
        if role != Role.OWNER:
            Membership.objects.create(organization=active.organization, user=user, role=role)
    people = [None, UserFactory.create(), active.organizer, *(members[role] for role in Role if role != Role.OWNER)]
    people.append(UserFactory.create(is_staff=True))
    #            visitor outsider owner  treasurer usher viewer admin
    visible = [False, False, True, True, True, True, True]
    editing = [False, False, True, False, False, False, True]

    assert [active.is_visible_to(user) for user in people] == [True] * 7
    assert [pending.is_visible_to(user) for user in people] == visible
    assert [active.can_be_edited_by(user) for user in people] == editing


@pytest.mark.django_db
def test_a_deactivated_owner_can_no_longer_edit():
    campaign = CampaignFactory.create()
    campaign.organizer.is_active = False

    assert not campaign.can_be_edited_by(campaign.organizer)


@pytest.mark.parametrize(
    ("status", "shareable"),
    [(CampaignStatus.ACTIVE, True), (CampaignStatus.PENDING, False), (CampaignStatus.CLOSED, False)],
)
def test_only_active_campaigns_can_be_shared(status, shareable):
    assert Campaign(status=status).can_be_shared is shareable


@pytest.mark.parametrize(
    ("fields", "cover"),
    [
        ({"media_type": MediaType.IMAGE, "image_url": "/static/x.svg"}, "/static/x.svg"),
        (
            {"media_type": MediaType.YOUTUBE, "youtube_id": "abcdefghijk"},
            "https://i.ytimg.com/vi/abcdefghijk/hqdefault.jpg",
        ),
        ({"media_type": MediaType.VIDEO, "image_url": "/media/clip.mp4"}, ""),
        ({"media_type": MediaType.IMAGE, "image_url": ""}, ""),
    ],
)
def test_the_cover_image_is_the_image_or_the_youtube_thumbnail(fields, cover):
    assert Campaign(**fields).cover_image_url == cover


def test_the_goal_must_be_at_least_one_in_the_database():
    with pytest.raises(IntegrityError):
        CampaignFactory.create(goal=0)


def test_a_user_likes_a_campaign_at_most_once():
    like = CampaignLikeFactory.create()

    with pytest.raises(IntegrityError):
        CampaignLikeFactory.create(campaign=like.campaign, user=like.user)


def test_full_clean_checks_payment_options_and_the_cover_url():
    campaign = CampaignFactory.build(
        organizer=UserFactory.create(),
        image_url="javascript:alert(1)",
        payment_options=[{"method": "mpesa_till", "details": {}}],
    )

    with pytest.raises(ValidationError) as error:
        campaign.full_clean()

    assert set(error.value.message_dict) == {"image_url", "payment_options"}
