"""System checks of a deployment's settings (``manage.py check --deploy``)."""

from typing import Any

from django.conf import settings
from django.core.checks import CheckMessage, Tags, Warning, register


@register(Tags.security, deploy=True)
def trusted_proxies_check(**kwargs: Any) -> list[CheckMessage]:
    """Behind a balancer every request comes from its address: without ``TRUSTED_PROXIES`` each
    rate limit would count the whole site as one client (ten sign-ups an hour for everyone)."""
    if settings.TRUSTED_PROXIES:
        return []
    return [
        Warning(
            "TRUSTED_PROXIES is empty: rate limits count the address that connects to the app.",
            hint="Behind a load balancer, set TRUSTED_PROXIES to its addresses or networks (README, Deployment).",
            id="harambee.W001",
        )
    ]
