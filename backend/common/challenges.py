"""A self-hosted proof-of-work challenge that lets people through a per-address limit instead of a refusal.

Hundreds of people pledge from one church Wi-Fi, so a limit per address is set for them, and past it a
browser proves it spent a moment of work instead of being refused: no third-party service, no cookie, no
tracking. The server hands out a signed challenge (``challenge_issue``: an HMAC-signed, expiring token
and a difficulty in bits); the browser finds a nonce such that SHA-256(``token:nonce``) starts with that
many zero bits (``frontend/src/lib/challenge``, in a Web Worker loaded only when needed) and sends
``token:nonce`` in the ``X-Challenge-Solution`` header. Each solution is accepted once
(``challenge_redeem``). Only the per-address limit yields to it: the limits per phone number, e-mail
address and account still apply. Requests without JavaScript meet the same limits, as a plain 429.

Difficulty: ``CHALLENGE_DIFFICULTY_BITS`` (12: 4,096 hashes on average). ``make bench`` measures the
solve time (frontend/src/lib/challenge/pow.bench.ts, results in bench/results/challenge.json).
"""

import hashlib
import secrets

from django.conf import settings
from django.core import signing

from common import ratelimit
from common.errors import RateLimitedError

SOLUTION_HEADER = "X-Challenge-Solution"
CHALLENGE_SALT = "common.challenge"
CHALLENGE_CODE = "challenge_required"


def challenge_issue() -> dict[str, object]:
    """A new challenge: solve within ``CHALLENGE_TTL_SECONDS``."""
    difficulty = settings.CHALLENGE_DIFFICULTY_BITS
    token = signing.dumps({"id": secrets.token_hex(8), "bits": difficulty}, salt=CHALLENGE_SALT)
    return {"token": token, "difficulty": difficulty, "expires_in": settings.CHALLENGE_TTL_SECONDS}


def _leading_zero_bits_at_least(digest: bytes, bits: int) -> bool:
    return int.from_bytes(digest, "big") >> (len(digest) * 8 - bits) == 0


def challenge_redeem(*, solution: str) -> bool:
    """True, once only, for a correct solution of an unexpired challenge we issued."""
    token, _, nonce = solution.strip().rpartition(":")
    if not token or not nonce.isdigit() or len(nonce) > 12:
        return False
    try:
        claims = signing.loads(token, salt=CHALLENGE_SALT, max_age=settings.CHALLENGE_TTL_SECONDS)
    except signing.BadSignature:  # forged, altered or expired
        return False
    bits = int(claims.get("bits", 0))
    if bits < settings.CHALLENGE_DIFFICULTY_BITS:
        return False
    if not _leading_zero_bits_at_least(hashlib.sha256(f"{token}:{nonce}".encode()).digest(), bits):
        return False
    try:  # single use: the first redemption counts the token, any later one passes the limit of one
        ratelimit.enforce(scope="challenge-redeemed", identifiers=[token], limit=(1, settings.CHALLENGE_TTL_SECONDS))
    except RateLimitedError:
        return False
    return True


def address_limit_enforce(
    *, scope: str, address: str, limit: tuple[int, int], solution: str, message: str = ""
) -> None:
    """Count an attempt from ``address``; past ``limit`` a solved challenge lets it through, otherwise 429
    with code ``challenge_required`` (the React app solves one and sends the request again)."""
    try:
        ratelimit.enforce(scope=scope, identifiers=[address], limit=limit, message=message)
    except RateLimitedError as refusal:
        if solution and challenge_redeem(solution=solution):
            return
        raise RateLimitedError(refusal.message, code=CHALLENGE_CODE, retry_after=refusal.retry_after) from None
