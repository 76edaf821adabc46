"""Adapters that speak each payment provider's HTTP protocol. Nothing here touches the database."""

import hashlib
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any, ClassVar, Generic, Protocol, TypeVar

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


def provider_request(provider: str, method: str, url: str, *, path: str, **options: Any) -> httpx.Response:
    """One request to a provider (``options`` as ``httpx.request`` takes them): ProviderTimeout when it
    went out and no answer came in time, ProviderError when it failed otherwise."""
    try:
        return httpx.request(method, url, **options)
    except (httpx.ReadTimeout, httpx.WriteTimeout) as exc:
        raise ProviderTimeout(f"{provider} {path} did not answer in time: {exc}") from exc
    except httpx.HTTPError as exc:
        raise ProviderError(f"{provider} {path} failed: {exc}") from exc


class Credentials(Protocol):
    @property
    def cache_key(self) -> str:
        """What tells one app's credentials from another's in its token's cache key."""
        ...


CredentialsT = TypeVar("CredentialsT", bound=Credentials)
TIMEOUT_SECONDS = 10.0


class BearerTokenClient(ABC, Generic[CredentialsT]):
    """A client of a provider's API that takes an OAuth client-credentials bearer token (Daraja, Airtel's
    Open API): the token from the shared cache (``bearer_token``), and requests sent with it."""

    provider: ClassVar[str]
    token_path: ClassVar[str]
    token_refresh_margin_seconds: ClassVar[int]

    def __init__(self, *, base_url: str, credentials: CredentialsT, timeout: float = TIMEOUT_SECONDS) -> None:
        self.base_url = base_url.rstrip("/")
        self.credentials = credentials
        self.timeout = timeout

    @abstractmethod
    def _token_request(self) -> httpx.Response:
        """Ask for a token with the app's credentials."""

    @abstractmethod
    def _token_refused(self, response: httpx.Response) -> ProviderError | None:
        """The provider's own refusal of the app's credentials, from its answer to ``_token_request``."""

    def _token_expired(self, response: httpx.Response) -> bool:
        """Whether the provider refused a request's token (expired or revoked before its time)."""
        return response.status_code == 401

    @property
    def _token_cache_key(self) -> str:
        return token_cache_key(
            provider=self.provider, base_url=self.base_url, credentials_key=self.credentials.cache_key
        )

    def access_token(self) -> str:
        """A bearer token, from the shared cache until shortly before the provider expires it."""
        return bearer_token(
            provider=self.provider,
            path=self.token_path,
            cache_key=self._token_cache_key,
            request=self._token_request,
            refused=self._token_refused,
            refresh_margin_seconds=self.token_refresh_margin_seconds,
        )

    def _headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.access_token()}"}

    def _authorized(self, method: str, path: str, body: dict[str, Any] | None = None) -> httpx.Response:
        """``body`` sent to ``path`` with the token, and the answer; sent once more with a new token when the
        provider refused the cached one."""
        network_call_check(f"{self.provider} {path}")
        for attempt in range(2):
            response = provider_request(
                self.provider,
                method,
                f"{self.base_url}{path}",
                path=path,
                json=body,
                headers=self._headers(),
                timeout=self.timeout,
            )
            if attempt or not self._token_expired(response):
                return response
            cache.delete(self._token_cache_key)  # refused before its time: a new token, once
        raise AssertionError("unreachable")
