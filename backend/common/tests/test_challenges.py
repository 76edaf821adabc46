"""The proof-of-work challenge: solved once, it lets a request through a per-address limit."""

import hashlib
import itertools

import pytest
from django.core import signing

from campaigns.tests.factories import CampaignFactory
from common.challenges import CHALLENGE_SALT, challenge_redeem

pytestmark = pytest.mark.django_db

ADDRESS = "127.0.18.90"


def solve(challenge):
    """What the browser's worker does (frontend/src/lib/challenge/pow.ts)."""
    token, bits = challenge["token"], challenge["difficulty"]
    for nonce in itertools.count():
        digest = int.from_bytes(hashlib.sha256(f"{token}:{nonce}".encode()).digest(), "big")
        if digest >> (256 - bits) == 0:
            return f"{token}:{nonce}"
    raise AssertionError("unreachable")


def new_challenge(client):
    answer = client.get("/api/challenge")
    assert answer["Cache-Control"] == "no-store"
    return answer.json()


def pledge(client, campaign, n, **headers):
    body = {
        "campaign_id": campaign.pk,
        "amount": 500,
        "name": "Mwangi",
        "email": f"giver{n}@example.com",
        "phone": f"07080000{n:02d}",
    }
    return client.post("/api/pledges", body, REMOTE_ADDR=ADDRESS, **headers)


def test_a_solution_is_accepted_once(api_client):
    solution = solve(new_challenge(api_client))

    assert challenge_redeem(solution=solution)
    assert not challenge_redeem(solution=solution)


def test_a_wrong_nonce_a_forged_token_or_an_easier_challenge_is_refused(api_client, settings):
    token = new_challenge(api_client)["token"]
    wrong = next(n for n in itertools.count() if not challenge_redeem(solution=f"{token}:{n}"))
    easier = signing.dumps({"id": "x", "bits": 1}, salt=CHALLENGE_SALT)

    assert not challenge_redeem(solution=f"{token}:{wrong}")
    assert not challenge_redeem(solution=solve({"token": token + "x", "difficulty": 1}))
    assert not challenge_redeem(solution=solve({"token": easier, "difficulty": 1}))
    assert not challenge_redeem(solution="no solution at all")


def test_past_the_per_address_limit_a_solved_challenge_lets_a_pledge_through(api_client, settings):
    settings.RATE_LIMIT_PLEDGE = (2, 600)
    campaign = CampaignFactory.create()
    assert [pledge(api_client, campaign, n).status_code for n in range(2)] == [201, 201]

    refused = pledge(api_client, campaign, 2)
    assert refused.status_code == 429
    assert refused.json()["code"] == "challenge_required"

    solution = solve(new_challenge(api_client))
    assert pledge(api_client, campaign, 3, HTTP_X_CHALLENGE_SOLUTION=solution).status_code == 201
    # Used once: the same solution again is refused, as is a request without JavaScript (no solution).
    assert pledge(api_client, campaign, 4, HTTP_X_CHALLENGE_SOLUTION=solution).status_code == 429
    assert pledge(api_client, campaign, 5).status_code == 429


def test_a_solved_challenge_does_not_pass_the_limit_per_phone_number(make_api_client, settings):
    settings.RATE_LIMIT_GIVING_CONTACT = (2, 3600)
    campaign = CampaignFactory.create()
    body = {"campaign_id": campaign.pk, "amount": 500, "name": "Mwangi", "phone": "0708374149"}

    answers = [
        make_api_client().post("/api/pledges", {**body, "email": f"g{n}@example.com"}, REMOTE_ADDR=f"127.0.18.{91 + n}")
        for n in range(3)
    ]

    assert [answer.status_code for answer in answers] == [201, 201, 429]
    assert answers[2].json()["code"] == "rate_limited"


def test_past_the_per_address_limit_a_solved_challenge_lets_a_member_sign_up(api_client, settings):
    settings.RATE_LIMIT_SIGN_UP = (1, 3600)

    def sign_up(n, **headers):
        body = {
            "first_name": "Grace",
            "last_name": "Wanjiku",
            "email": f"member{n}@example.com",
            "phone": f"07123456{n:02d}",
            "id_number": f"3123456{n}",
            "password": "Harambee#2026",
            "confirm_password": "Harambee#2026",
        }
        return api_client.post("/api/signup", body, REMOTE_ADDR=ADDRESS, **headers)

    assert sign_up(1).status_code == 201
    api_client.post("/api/auth/signout")
    assert sign_up(2).json()["code"] == "challenge_required"
    assert sign_up(2, HTTP_X_CHALLENGE_SOLUTION=solve(new_challenge(api_client))).status_code == 201
