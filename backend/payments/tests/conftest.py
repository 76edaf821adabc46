from payments.tests.airtel_support import airtel_church
from payments.tests.connected_support import church
from payments.tests.support import providers

__all__ = ["airtel_church", "church", "providers"]
