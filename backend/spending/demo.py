"""Demo spending for ``load_demo_data``: a few lines on the ministry campaign, recorded by its
organization's treasurer and approved by its owner, one still waiting, and a progress update. Loading
again adds nothing (a campaign that has lines is left as it is)."""

from datetime import timedelta

from django.utils import timezone

from campaigns.models import Campaign
from organizations.models import Membership
from organizations.roles import Role
from spending.models import SpendingRecord
from spending.services import progress_update_post, spending_approve, spending_record

LINES = [
    # days ago, payee, kind, category, amount, note, approved
    (20, "Kisumu Hardware Ltd", "organization", "materials", 48_000, "Iron sheets, 40 pieces", True),
    (12, "Peter Mwangi Kariuki", "person", "labour", 15_000, "Fundi: two weeks", True),
    (12, "Nyeri Lorry Services", "organization", "transport", 6_500, "Sheets from Kisumu to the church", True),
    (2, "Kenya Power", "organization", "fees", 3_200, "Reconnection", False),
]


def demo_spending_load(*, campaign: Campaign) -> None:
    if SpendingRecord.objects.filter(campaign=campaign).exists():
        return
    team = {
        membership.role: membership.user
        for membership in Membership.objects.filter(organization_id=campaign.organization_id).select_related("user")
    }
    recorder, approver = team.get(Role.TREASURER), team.get(Role.OWNER)
    if recorder is None or approver is None:
        return
    today = timezone.localdate()
    for days_ago, payee, kind, category, amount, note, approved in LINES:
        line = spending_record(
            user=recorder,
            campaign_id=campaign.pk,
            spent_on=today - timedelta(days=days_ago),
            payee=payee,
            payee_kind=kind,
            category=category,
            amount=amount,
            note=note,
        )
        if approved:
            spending_approve(user=approver, record_id=line.pk)
    progress_update_post(
        user=approver,
        campaign_id=campaign.pk,
        text="The iron sheets are up: the roof is on before the long rains. Asanteni sana!",
        photo_urls=[],
    )
