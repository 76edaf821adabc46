"""Every campaign moves into an organization: a personal one of its organizer, who owns it.

One personal organization per organizer, named like ``organizations.services.organization_personal_create``
names it, so each organizer keeps every right over their campaigns (tests/test_migrations.py).
"""

from django.db import migrations


def _personal_name(user) -> str:
    full_name = " ".join(part for part in (user.first_name.strip(), user.last_name.strip()) if part)
    return full_name or user.first_name.strip() or user.email.partition("@")[0] or "User"


def move_campaigns_into_personal_organizations(apps, schema_editor):
    Campaign = apps.get_model("campaigns", "Campaign")
    User = apps.get_model("accounts", "User")
    Organization = apps.get_model("organizations", "Organization")
    Membership = apps.get_model("organizations", "Membership")
    organizer_ids = Campaign.objects.filter(organization__isnull=True).values_list("organizer_id", flat=True)
    for organizer in User.objects.filter(pk__in=organizer_ids.distinct()).iterator():
        organization = Organization.objects.create(name=_personal_name(organizer), kind="personal")
        Membership.objects.create(organization=organization, user=organizer, role="owner")
        Campaign.objects.filter(organizer=organizer, organization__isnull=True).update(organization=organization)


class Migration(migrations.Migration):
    dependencies = [("campaigns", "0005_campaign_organization")]

    operations = [migrations.RunPython(move_campaigns_into_personal_organizations, migrations.RunPython.noop)]
