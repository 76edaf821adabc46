from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from accounts.demo import DEMO_PASSWORD, demo_users_load
from campaigns.demo import MEMBER, ORGANIZER, demo_campaigns_load
from collection_accounts.demo import demo_organizations_load
from events.demo import demo_events_load
from organizations.demo import DEMO_TEAM, demo_team_load
from organizations.roles import Role
from payments.demo import demo_airtel_load
from pledges.demo import demo_pledges_load
from spending.demo import demo_spending_load


class Command(BaseCommand):
    help = "Load demo accounts and campaigns. Safe to run again: nothing is duplicated."

    def handle(self, *args: Any, **options: Any) -> None:
        if settings.IS_PRODUCTION or not settings.SECRET_KEY.startswith("local-"):
            raise CommandError("Demo data is for local use only; refusing to load it into a production deployment.")
        users = demo_users_load()
        by_email = {user.email: user for user in users}
        # The second organization's team is the demo treasurer and viewer, who also serve the organizer's.
        team = {role: by_email[email] for email, role in DEMO_TEAM.items()}
        demo_organizations_load(owner=by_email[MEMBER], treasurer=team[Role.TREASURER], viewer=team[Role.VIEWER])
        campaigns = demo_campaigns_load()
        demo_airtel_load()
        ministry = demo_pledges_load()
        event = demo_events_load(campaign=ministry)
        organizers_team = demo_team_load(organizer_email=ORGANIZER)
        demo_spending_load(campaign=ministry)
        site = settings.SITE_URL  # where this server is (make run PORT=…, scripts/serve.sh): every address below
        self.stdout.write(self.style.SUCCESS(f"Demo data is loaded. Sign in at {site}/signin with:"))
        for user in users:
            role = "admin" if user.is_staff else ("organizer" if user.email == ORGANIZER else "member")
            role = DEMO_TEAM.get(user.email, role)
            self.stdout.write(f"  {role:<10} {user.email:<28} password: {DEMO_PASSWORD}")
        self.stdout.write(f"{len(campaigns)} demo campaigns: {site}/explore")
        self.stdout.write(f"The organizer's team: {site}/organizations/{organizers_team.pk}")
        self.stdout.write(f"The ministry page {site}/icc-imara-donate uses campaign {ministry.pk}.")
        self.stdout.write(f"How its money was used: {site}/campaign/{ministry.pk}/spending")
        self.stdout.write(
            f"Its event '{event.title}': {site}/campaign/{ministry.pk}/events (open it), "
            f"the big screen {site}/campaign/{ministry.pk}/live"
        )
