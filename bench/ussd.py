"""Benchmark: the USSD callback with 50 concurrent sessions, through the real server on PostgreSQL.

Seeds once (later runs reuse it) an active campaign, and 50 callers with two open pledges each.
Starts gunicorn (2 workers x 4 threads, as one instance runs) on a free loopback port; 50 threads
each play sessions as Africa's Talking's gateway sends them (form fields, the whole input joined by
'*'): a pledge from the first screen to the confirmation (a pledge recorded, its SMS queued), and
'My pledges'. Times every step and writes bench/results/ussd.json.

Two runs:
- ``sessions``: how people use USSD. Each caller reads a screen and types an answer before the next
  request, and dials before the first (a think time drawn between 1 and 4 seconds: a feature phone's
  keypad is slow), so 50 open sessions make some 17 requests a second. Goal: p95 <= 150 ms.
- ``capacity``: the same sessions back to back with no think time, 50 requests always in flight:
  the most steps a second one instance answers. Its latency is queueing (by Little's law, 50 in
  flight at N steps/s wait 50/N s on average), not a goal.

    .venv/bin/python bench/ussd.py [--sessions 4]

DATABASE_URL defaults to postgres://postgres@127.0.0.1:5432/h_bench_ussd (created when missing).
Not part of ``make test``; ``make bench`` runs it.
"""

import argparse
import http.client
import json
import random
import threading
import time
from urllib.parse import urlencode

from support import RESULTS_DIR, django_on_postgres, free_port, latency_summary, start_server

RESULTS = RESULTS_DIR / "ussd.json"
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/h_bench_ussd"
CALLERS = 50
ORGANIZER_EMAIL = "bench.ussd.organizer@example.com"
GOAL_P95_MS = 150.0


def caller_phone(n: int) -> str:
    return f"+25471{n:06d}5"


def seed() -> int:
    """The campaign's id; the campaign and the callers' pledges are made on the first run."""
    from datetime import timedelta

    from django.utils import timezone

    from accounts.models import User
    from campaigns.models import Campaign
    from organizations.services import organization_choose_for_campaign
    from pledges.models import Pledge

    campaign = Campaign.objects.filter(organizer__email=ORGANIZER_EMAIL).first()
    if campaign is not None:
        return campaign.pk
    organizer = User.objects.create_user(email=ORGANIZER_EMAIL, password=None, first_name="Bench")
    campaign = Campaign.objects.create(
        organizer=organizer,
        organization=organization_choose_for_campaign(user=organizer, organization_id=None),
        title="Ujenzi wa Kanisa la Mtakatifu Yohana: Harambee ya Paa na Madawati",
        description="The USSD benchmark's campaign.",
        story="Seeded by bench/ussd.py.",
        category="church",
        goal=100_000_000,
        status="active",
        end_date=timezone.localdate() + timedelta(days=365),
    )
    Pledge.objects.bulk_create(
        [
            Pledge(campaign=campaign, phone=caller_phone(n), amount=1000 + k, phone_verified=True)
            for n in range(CALLERS)
            for k in range(2)
        ]
    )
    return campaign.pk


THINK_SECONDS = (1.0, 4.0)


def play(
    port: int, token: str, caller: int, sessions: int, campaign_id: int, timings: list[float], *, think: bool
) -> None:
    """One caller's sessions, step after step on one keep-alive connection (reading and typing
    between steps when ``think``)."""
    pause = random.Random(caller)
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    path = f"/api/ussd/callback/{token}"
    flows = [["1", str(campaign_id), "500", "1", "1"], ["3"]]
    for session in range(sessions):
        answers = flows[session % len(flows)]
        session_id = f"ATUid_bench_{caller}_{session}_{time.time_ns()}"
        for step in range(len(answers) + 1):
            if think:  # dialling the code, then reading each screen and typing the answer
                time.sleep(pause.uniform(*THINK_SECONDS))
                # The server closes a keep-alive connection idle for 2 s; the gateway then opens another.
                connection.close()
            body = urlencode(
                {
                    "sessionId": session_id,
                    "serviceCode": "*384*4242#",
                    "phoneNumber": caller_phone(caller),
                    "networkCode": "63902",
                    "text": "*".join(answers[:step]),
                }
            )
            started = time.perf_counter()
            connection.request("POST", path, body, {"Content-Type": "application/x-www-form-urlencoded"})
            response = connection.getresponse()
            answer = response.read().decode()
            timings.append((time.perf_counter() - started) * 1000)
            if response.status != 200 or not answer.startswith(("CON ", "END ")):
                raise RuntimeError(f"step {step} of {session_id}: {response.status} {answer}")
    connection.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sessions", type=int, default=4, help="sessions per caller (default 4)")
    args = parser.parse_args()
    env = django_on_postgres(DEFAULT_DATABASE_URL)
    from django.core.management import call_command

    call_command("createcachetable")  # the cache is the database's unless REDIS_URL is set
    # Every caller pledges in every other session: no per-number limit in the way.
    env.update(RATE_LIMIT_USSD_PLEDGES="100000/86400", RATE_LIMIT_GIVING_CONTACT="100000/3600", LOG_LEVEL="WARNING")
    from django.conf import settings

    campaign_id = seed()
    port = free_port()
    server = start_server(port, env, workers=2, threads=4)
    try:
        result = {
            "concurrent_sessions": CALLERS,
            "sessions": run(port, settings.AFRICASTALKING_CALLBACK_TOKEN, args.sessions, campaign_id, think=True),
            "capacity": run(port, settings.AFRICASTALKING_CALLBACK_TOKEN, args.sessions, campaign_id, think=False),
            "goal_p95_ms": GOAL_P95_MS,
        }
    finally:
        server.terminate()
        server.wait()
    result["meets_goal"] = result["sessions"]["p95_ms"] <= GOAL_P95_MS
    RESULTS.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


def run(port: int, token: str, sessions: int, campaign_id: int, *, think: bool) -> dict[str, float]:
    """Every caller's sessions at once; the steps' latencies and rate."""
    timings: list[float] = []
    threads = [
        threading.Thread(
            target=play, args=(port, token, caller, sessions, campaign_id, timings), kwargs={"think": think}
        )
        for caller in range(CALLERS)
    ]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    return {"steps": len(timings), "steps_per_second": round(len(timings) / elapsed, 1), **latency_summary(timings)}


if __name__ == "__main__":
    main()
