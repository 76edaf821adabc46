"""The proof-of-work challenge a browser solves to pass a per-address limit (common/challenges.py)."""

from django.http import HttpRequest, HttpResponse
from ninja import Router, Schema

from common.challenges import challenge_issue

router = Router(tags=["challenges"])


class ChallengeOut(Schema):
    token: str
    difficulty: int
    expires_in: int


@router.get("/challenge", response=ChallengeOut)
def challenge(request: HttpRequest, response: HttpResponse) -> dict[str, object]:
    """A new challenge: find a nonce such that SHA-256(``token:nonce``) starts with ``difficulty`` zero
    bits, then send ``token:nonce`` as the ``X-Challenge-Solution`` header of the refused request."""
    response["Cache-Control"] = "no-store"
    return challenge_issue()
