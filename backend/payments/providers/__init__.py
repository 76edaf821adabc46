"""Adapters that speak each payment provider's HTTP protocol. Nothing here touches the database."""

import hashlib
from collections.abc import Callable

import httpx
from django.core.cache import cache

from common.network import network_call_check


class ProviderError(Exception):
    """The provider could not be reached or refused the request."""


class ProviderTimeout(ProviderError):
    """The request went out but no answer came in time: the provider may well have acted on it."""


class MalformedBody(ValueError):
    """A callback or answer is not in the provider's documented shape."""


def token_cache_key(*, provider: str, base_url: str, credentials_key: str) -> str:
    """Where one app's token at one address is cached: a replaced key or secret never reuses the old one's."""
    digest = hashlib.sha256(f"{base_url}|{credentials_key}".encode()).hexdigest()[:24]
    return f"payments:{provider.lower()}-token:{digest}"


def bearer_token(
    *,
    provider: str,
    path: str,
    cache_key: str,
    request: Callable[[], httpx.Response],
    refused: Callable[[httpx.Response], ProviderError | None],
    refresh_margin_seconds: int,
) -> str:
    """An OAuth client-credentials token, from the shared cache (``cache_key``) until
    ``refresh_margin_seconds`` before the provider expires it, else asked for at ``path`` (``request``).
    ``refused`` names the provider's own refusal of the app's credentials; the answer is
    ``{access_token, expires_in}`` (``expires_in`` often a string)."""
    token = cache.get(cache_key)
    if token:
        return str(token)
    network_call_check(f"{provider} {path}")
    try:
        response = request()
    except httpx.HTTPError as exc:
        raise ProviderError(f"{provider} token request failed: {exc}") from exc
    if refusal := refused(response):
        raise refusal
    if response.status_code != 200:
        raise ProviderError(f"{provider} refused the token request ({response.status_code}): {response.text[:200]}")
    try:
        body = response.json()
        token, expires_in = str(body["access_token"]), int(body["expires_in"])
    except (ValueError, KeyError, TypeError):
        raise ProviderError(f"{provider} answered the token request in an unknown shape") from None
    cache.set(cache_key, token, timeout=max(expires_in - refresh_margin_seconds, 1))
    return token
