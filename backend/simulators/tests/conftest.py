from campaigns.tests.conftest import campaign, organizer
from payments.tests.support import providers
from simulators.tests.support import receiver

__all__ = ["campaign", "organizer", "providers", "receiver"]
