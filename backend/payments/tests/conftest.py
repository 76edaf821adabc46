from payments.tests.connected_support import church
from payments.tests.support import providers

__all__ = ["church", "providers"]
