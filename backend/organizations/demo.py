"""The demo organizer's team: a treasurer and a viewer. Loaded by ``manage.py load_demo_data`` after
the campaigns (which made the organizer's organization); loading again adds nothing."""

from accounts.models import User
from organizations.models import Membership, Organization
from organizations.roles import Role

DEMO_TEAM = {"treasurer@harambee.local": Role.TREASURER, "viewer@harambee.local": Role.VIEWER}


def demo_team_load(*, organizer_email: str) -> Organization:
    organizer = User.objects.get(email__iexact=organizer_email)
    organization = Organization.objects.filter(memberships__user=organizer, memberships__role=Role.OWNER).first()
    assert organization is not None, "the demo campaigns make the organizer's organization"
    for email, role in DEMO_TEAM.items():
        Membership.objects.get_or_create(
            organization=organization, user=User.objects.get(email__iexact=email), defaults={"role": role}
        )
    return organization
