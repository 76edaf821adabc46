"""Adapters that speak each payment provider's HTTP protocol. Nothing here touches the database."""


class ProviderError(Exception):
    """The provider could not be reached or refused the request."""


class ProviderTimeout(ProviderError):
    """The request went out but no answer came in time: the provider may well have acted on it."""


class MalformedBody(ValueError):
    """A callback or answer is not in the provider's documented shape."""
