"""Adapters that speak each payment provider's HTTP protocol. Nothing here touches the database."""


class ProviderError(Exception):
    """The provider could not be reached or refused the request."""


class MalformedBody(ValueError):
    """A callback or answer is not in the provider's documented shape."""
