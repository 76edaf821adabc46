"""Givers read the organization's name as the one they pay: no public answer names a person there.
A campaign of a personal organization (made for its organizer, named after them) names no payee
until its owner names the organization."""

import pytest

from organizations.services import organization_update

pytestmark = pytest.mark.django_db


def test_a_personal_organizations_campaign_names_no_person_as_the_payee(visitor_client, campaign, organizer):
    assert campaign.organization.name == "Grace Wanjiku"  # the personal organization, as older campaigns have

    page = visitor_client.get(f"/api/campaigns/{campaign.pk}").json()
    screen = visitor_client.get(f"/api/campaigns/{campaign.pk}/live").json()

    assert (page["organization_name"], screen["organization_name"]) == ("", "")
    assert "Grace Wanjiku" not in str(screen)
    assert page["organizer_name"] == "Grace Wanjiku"  # who organizes it, never the payee


def test_once_named_the_organization_is_the_payee_everywhere(visitor_client, campaign, organizer):
    organization_update(
        user=organizer, organization_id=campaign.organization_id, name="Kiambu Revival Ministry", kind="ministry"
    )

    page = visitor_client.get(f"/api/campaigns/{campaign.pk}").json()
    screen = visitor_client.get(f"/api/campaigns/{campaign.pk}/live").json()

    assert (page["organization_name"], screen["organization_name"]) == (
        "Kiambu Revival Ministry",
        "Kiambu Revival Ministry",
    )
