"""Becoming a champion, naming one, teams, and pledging through a champion's page."""

import pytest

from accounts.tests.factories import UserFactory
from champions import codes
from champions.models import Attribution, Champion, HarambeeCard
from champions.services import champion_create, champion_pledge_create, champion_update, team_create
from common.errors import FieldValidationError, PermissionDeniedError, ServiceError

pytestmark = pytest.mark.django_db


def test_a_signed_in_member_becomes_a_champion_with_a_valid_code_and_the_next_card(campaign, member, organizer):
    first = champion_create(campaign_id=campaign.pk, user=organizer, goal=10_000)
    champion = champion_create(campaign_id=campaign.pk, user=member, goal=20_000, appeal="Help my jumuiya")

    assert champion.name == "Amina Hassan" and champion.user == member
    assert codes.is_valid_code(champion.code) and len(champion.code) == 6
    assert champion.page_path == f"/campaign/{campaign.pk}/c/{champion.code}"
    assert [first.card.number, champion.card.number] == [1, 2]
    assert HarambeeCard.objects.filter(campaign=campaign).count() == 2


def test_a_member_is_a_champion_of_a_campaign_once(campaign, member):
    champion_create(campaign_id=campaign.pk, user=member, goal=20_000)
    with pytest.raises(ServiceError) as refused:
        champion_create(campaign_id=campaign.pk, user=member, goal=5_000)
    assert refused.value.code == "already_champion"


def test_only_the_campaigns_owners_and_treasurers_name_someone_else_a_champion(campaign, member, organizer):
    named = champion_create(
        campaign_id=campaign.pk,
        user=organizer,
        goal=30_000,
        name="Mama Otieno",
        phone="0712000111",
        for_someone_else=True,
    )
    assert (named.user, named.phone, named.created_by) == (None, "+254712000111", organizer)
    with pytest.raises(PermissionDeniedError):
        champion_create(
            campaign_id=campaign.pk, user=member, goal=30_000, name="Baba", phone="0712000112", for_someone_else=True
        )
    with pytest.raises(FieldValidationError) as refused:
        champion_create(campaign_id=campaign.pk, user=organizer, goal=0, name="", for_someone_else=True)
    assert set(refused.value.field_errors) == {"name", "phone", "goal"}


def test_a_champion_joins_a_team_and_leaves_the_leaderboard(campaign, member, organizer):
    choir = team_create(campaign_id=campaign.pk, user=organizer, name="  The  choir ", goal=100_000)
    champion = champion_create(campaign_id=campaign.pk, user=member, goal=20_000)

    champion_update(
        campaign_id=campaign.pk, code=champion.code.lower(), user=member, team_id=choir.pk, on_leaderboard=False
    )

    champion.refresh_from_db()
    assert (choir.name, champion.team, champion.on_leaderboard) == ("The choir", choir, False)
    with pytest.raises(PermissionDeniedError):
        champion_update(campaign_id=campaign.pk, code=champion.code, user=UserFactory.create(), goal=1)
    with pytest.raises(PermissionDeniedError):
        team_create(campaign_id=campaign.pk, user=member, name="Youth")
    with pytest.raises(FieldValidationError):
        team_create(campaign_id=campaign.pk, user=organizer, name="The choir")


def test_a_pledge_on_a_champions_page_is_the_campaigns_pledge_attributed_to_the_champion(campaign, member):
    champion = champion_create(campaign_id=campaign.pk, user=member, goal=20_000)

    pledge = champion_pledge_create(
        campaign_id=campaign.pk,
        code=champion.code,
        amount=3_000,
        name="Kamau Njoroge",
        email="kamau@example.com",
        phone="0712000333",
        is_anonymous=False,
        viewer=None,
        client_ip="127.0.0.51",
    )

    campaign.refresh_from_db()
    assert campaign.pledged_total == 3_000
    assert Attribution.objects.get(pledge=pledge).champion == champion
    assert Champion.objects.get(pk=champion.pk).attributions.count() == 1


def test_an_account_deletion_keeps_the_champions_money_but_not_who_they_are(campaign, member, client):
    from privacy.selectors import personal_data_export
    from privacy.services import PERSONAL_DATA_ERASERS

    champion = champion_create(campaign_id=campaign.pk, user=member, goal=20_000, appeal="Mine", phone="0712000888")
    assert [c.code for c in personal_data_export(user=member)["championships"]] == [champion.code]  # type: ignore[attr-defined]

    next(erase for erase in PERSONAL_DATA_ERASERS if erase.__name__ == "champions_personal_data_erase")(user=member)

    champion.refresh_from_db()
    assert (champion.user, champion.name, champion.phone, champion.appeal, champion.on_leaderboard) == (
        None,
        "Deleted user",
        "",
        "",
        False,
    )
