"""`manage.py scheduler`: every scheduled job in one process, a failed one reported and the others run."""

from io import StringIO

from django.core.management import call_command, get_commands
from django.core.management.base import CommandError

from config.management.commands import scheduler


def test_a_round_runs_every_job_and_a_failed_one_holds_up_none_of_the_others(monkeypatch):
    ran: list[str] = []

    def job(name, **options):
        ran.append(name)
        if name == "mpesa_pull_transactions":
            raise CommandError("Daraja is down")

    monkeypatch.setattr(scheduler, "call_command", job)
    errors = StringIO()

    call_command("scheduler", "--once", stderr=errors)

    assert ran == [name for name, _ in scheduler.JOBS]
    assert errors.getvalue().strip() == "Could not pull M-Pesa transactions: Daraja is down"


def test_every_job_is_a_command_of_the_project():
    assert {name for name, _ in scheduler.JOBS} <= set(get_commands())
