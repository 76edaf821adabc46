from campaigns.tests.conftest import campaign, organizer
from payments.tests.support import providers

__all__ = ["campaign", "organizer", "providers"]
