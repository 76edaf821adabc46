"""Errors that services raise and the API turns into JSON answers."""


class ServiceError(Exception):
    """A rule was broken: answered with ``status`` and ``{"detail": message}``."""

    status = 400

    def __init__(self, message: str, *, code: str = "invalid", field_errors: dict[str, str] | None = None):
        super().__init__(message)
        self.message = message
        self.code = code
        self.field_errors = field_errors or {}


class FieldValidationError(ServiceError):
    """Input failed validation; ``field_errors`` maps field names to messages."""

    status = 422


class PermissionDeniedError(ServiceError):
    status = 403


class NotFoundError(ServiceError):
    status = 404


class RateLimitedError(ServiceError):
    """Too many attempts: answered 429 with ``Retry-After: retry_after`` (seconds) when known."""

    status = 429

    def __init__(self, message: str, *, code: str = "rate_limited", retry_after: int | None = None):
        super().__init__(message, code=code)
        self.retry_after = retry_after
