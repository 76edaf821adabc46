from datetime import timedelta

import factory
from django.utils import timezone

from accounts.tests.factories import UserFactory
from grants.models import Grant, GrantApplication, GrantCategory, OrganizationProfile
from payments.models import Payment, Subscription


class GrantFactory(factory.django.DjangoModelFactory[Grant]):
    """An open grant: deadline in 60 days."""

    class Meta:
        model = Grant

    title = factory.Sequence(lambda n: f"Grant number {n}")
    organization = "Example Foundation"
    category = GrantCategory.OTHER
    amount_usd = 10_000
    location = "Kenya"
    deadline = factory.LazyFunction(lambda: timezone.localdate() + timedelta(days=60))
    description = "A grant for good work."
    website = "https://example.org/apply"


class OrganizationProfileFactory(factory.django.DjangoModelFactory[OrganizationProfile]):
    class Meta:
        model = OrganizationProfile

    user = factory.SubFactory(UserFactory)
    organization_name = "Hope Community Church"
    mission = "We serve families in Nairobi through schools and the gospel."
    focus_areas = "Education, Youth"
    organization_type = "Church"
    location = "Nairobi, Kenya"
    funding_range = "$10,000 - $50,000"


class GrantApplicationFactory(factory.django.DjangoModelFactory[GrantApplication]):
    class Meta:
        model = GrantApplication

    user = factory.SubFactory(UserFactory)
    grant = factory.SubFactory(GrantFactory)
    state = GrantApplication.State.SAVED


def subscribe(user, *, days_left: int = 30) -> Subscription:
    """Make ``user`` a subscriber (has_paid) for ``days_left`` more days; negative: a lapsed one."""
    payment = Payment.objects.create(
        provider=Payment.Provider.CARD,
        purpose=Payment.Purpose.SUBSCRIPTION,
        amount=2500,
        user=user,
        status=Payment.Status.SUCCEEDED,
    )
    now = timezone.now()
    return Subscription.objects.create(
        user=user, payment=payment, starts_at=now - timedelta(days=30), ends_at=now + timedelta(days=days_left)
    )
