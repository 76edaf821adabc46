from types import SimpleNamespace
from typing import Any

import pytest

from payments.tests.support import providers

__all__ = ["providers", "sms_gateway"]


@pytest.fixture
def sms_gateway(settings: Any, providers: SimpleNamespace) -> SimpleNamespace:
    """The SMS adapter pointed at the Africa's Talking simulator on the live server."""
    settings.AFRICASTALKING_BASE_URL = settings.AFRICASTALKING_CONTENT_BASE_URL = f"{providers.url}/simulators/sms"
    return providers
