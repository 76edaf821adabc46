"""Spending lines as the team makes them: recorded by one owner or treasurer, approved by another."""

from datetime import date

from django.utils import timezone

from accounts.models import User
from accounts.tests.factories import UserFactory
from campaigns.models import Campaign
from organizations.models import Membership
from organizations.roles import Role
from spending.models import SpendingRecord
from spending.services import spending_approve, spending_record


def treasurer_of(campaign: Campaign, *, first_name: str = "Wanjiru", role: str = Role.TREASURER) -> User:
    user = UserFactory.create(first_name=first_name)
    Membership.objects.create(organization=campaign.organization, user=user, role=role)
    return user


def spent(
    campaign: Campaign,
    *,
    amount: int,
    category: str = "materials",
    payee: str = "Kisumu Hardware Ltd",
    payee_kind: str = "organization",
    recorder: User | None = None,
    approver: User | None = None,
    on: date | None = None,
    approve: bool = True,
) -> SpendingRecord:
    """A line recorded by ``recorder`` (a new treasurer) and approved by ``approver`` (the organizer)."""
    recorder = recorder or treasurer_of(campaign)
    record = spending_record(
        user=recorder,
        campaign_id=campaign.pk,
        spent_on=on or timezone.localdate(),
        payee=payee,
        payee_kind=payee_kind,
        category=category,
        amount=amount,
    )
    if approve:
        record = spending_approve(user=approver or campaign.organizer, record_id=record.pk)
    return record
