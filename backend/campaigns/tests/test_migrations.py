"""Migration 0006: every campaign moves into a personal organization of its organizer, who owns it."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from accounts.models import User
from campaigns.models import Campaign
from organizations.models import Membership, OrganizationKind
from organizations.roles import Permission, Role


def migrate(campaigns_migration: str | None = None):
    """Every app at its latest migration, campaigns at ``campaigns_migration`` if given (and each
    other app at its latest migration that needs no later one of campaigns)."""
    executor = MigrationExecutor(connection)
    graph = executor.loader.graph
    targets = graph.leaf_nodes()
    if campaigns_migration:
        target = ("campaigns", campaigns_migration)
        allowed = set(graph.forwards_plan(target))

        def fits(node):
            return all(needed in allowed for needed in graph.forwards_plan(node) if needed[0] == "campaigns")

        def latest_fitting(app):
            fitting = [node for node in graph.nodes if node[0] == app and fits(node)]
            return max(fitting, key=lambda node: len(graph.forwards_plan(node)), default=(app, None))

        targets = [target if app == "campaigns" else latest_fitting(app) for app, _name in targets]
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state([node for node in targets if node[1] is not None]).apps


@pytest.fixture
def before_organizations(transactional_db):
    yield migrate("0005_campaign_organization")
    migrate()


def old_campaign(apps, organizer, title, status="active"):
    return apps.get_model("campaigns", "Campaign").objects.create(
        organizer_id=organizer.pk,
        title=title,
        description="d",
        story="s",
        category="church",
        goal=1000,
        status=status,
        end_date=timezone.localdate(),
    )


def test_every_campaign_stays_with_its_organizer_with_the_same_rights(before_organizations):
    apps = before_organizations
    OldUser = apps.get_model("accounts", "User")
    grace = OldUser.objects.create(email="grace@example.com", first_name="Grace", last_name="Wanjiku")
    otieno = OldUser.objects.create(email="otieno@example.com")
    old_campaign(apps, grace, "Roof")
    old_campaign(apps, grace, "Choir robes", status="pending")
    old_campaign(apps, otieno, "Borehole", status="closed")

    migrate()

    grace, otieno = User.objects.get(email="grace@example.com"), User.objects.get(email="otieno@example.com")
    for organizer, titles, name in (
        (grace, {"Roof", "Choir robes"}, "Grace Wanjiku"),
        (otieno, {"Borehole"}, "otieno"),
    ):
        campaigns = list(Campaign.objects.filter(organizer=organizer))
        assert {campaign.title for campaign in campaigns} == titles
        (organization,) = {campaign.organization for campaign in campaigns}
        assert (organization.name, organization.kind) == (name, OrganizationKind.PERSONAL)
        assert list(Membership.objects.filter(organization=organization).values_list("user", "role")) == [
            (organizer.pk, Role.OWNER)
        ]
        for campaign in campaigns:
            assert campaign.is_visible_to(organizer)
            assert all(campaign.allows(organizer, permission) for permission in Permission)
    assert not Campaign.objects.get(title="Roof").allows(otieno, Permission.SEE_PLEDGES)
