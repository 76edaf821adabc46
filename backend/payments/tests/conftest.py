from payments.tests.support import providers

__all__ = ["providers"]
