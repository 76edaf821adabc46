"""An event's cash counted against its desk, through HTTP: differences per usher and in total, the
sign-off that freezes the counts, late deliveries shown beside the signed figures, the withdrawal of
a sign-off, and who may do each."""

import pytest

from accounts.tests.factories import UserFactory
from audit.models import AuditAction, AuditEntry
from desk.models import CashCount, DeskEntry
from desk.tests.test_desk_api import entry, member_client, passcode_client
from events.tests.factories import open_event
from organizations.models import Membership
from organizations.roles import Role

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(campaign):
    return open_event(campaign)


@pytest.fixture
def treasurer(campaign):
    member = UserFactory.create(first_name="Ruth", last_name="Njeri")
    Membership.objects.create(organization=campaign.organization, user=member, role=Role.TREASURER)
    return member


@pytest.fixture
def treasurer_client(treasurer, make_api_client):
    return make_api_client(signed_in_as=treasurer)


def usher_client(campaign, make_api_client, first_name):
    member = UserFactory.create(first_name=first_name, last_name="Usher")
    Membership.objects.create(organization=campaign.organization, user=member, role=Role.USHER)
    return make_api_client(signed_in_as=member), f"user-{member.pk}"


def cash(client, event, *amounts):
    for amount in amounts:
        answer = entry(client, event, kind="cash", amount=amount, phone="")
        assert answer.status_code == 201, answer.content


def reconciliation(client, event):
    return client.get(f"/api/events/{event.pk}/cash-reconciliation")


def count(client, event, usher_key, counted, note=""):
    body = {"counted": counted, "note": note}
    return client.put(f"/api/events/{event.pk}/cash-counts/{usher_key}", body, content_type="application/json")


def sign_off(client, event):
    return client.post(f"/api/events/{event.pk}/cash-reconciliation/sign-off")


def reopen(client, event, reason="Recount: an envelope was found"):
    return client.post(f"/api/events/{event.pk}/cash-reconciliation/reopen", {"reason": reason})


def close(organizer_client, event):
    assert organizer_client.post(f"/api/events/{event.pk}/close").status_code == 200


def by_name(answer):
    return {usher["usher_name"]: usher for usher in answer.json()["ushers"]}


def test_each_ushers_recorded_cash_is_beside_the_count_with_the_difference_short_or_over(
    campaign, event, make_api_client, treasurer_client, django_assert_num_queries
):
    amina, amina_key = usher_client(campaign, make_api_client, "Amina")
    baraka, baraka_key = usher_client(campaign, make_api_client, "Baraka")
    cash(amina, event, 1_000, 2_500)
    cash(baraka, event, 700)
    entry(baraka, event, kind="pledge", amount=50_000)  # a pledge card is no cash

    short = count(treasurer_client, event, amina_key, 3_300, note="  One note  missing ")
    with django_assert_num_queries(8):  # the session and its user, the event, its campaign, 4 of the count
        before_baraka = reconciliation(treasurer_client, event)
    over = count(treasurer_client, event, baraka_key, 800)

    assert short.status_code == over.status_code == before_baraka.status_code == 200
    assert before_baraka.json()["difference"] is None
    assert before_baraka.json()["uncounted"] == 1
    ushers = by_name(over)
    assert {
        name: (u["recorded_count"], u["recorded_total"], u["counted"], u["difference"]) for name, u in ushers.items()
    } == {
        "Amina": (2, 3_500, 3_300, -200),
        "Baraka": (1, 700, 800, 100),
    }
    assert ushers["Amina"]["note"] == "One note missing"
    assert ushers["Amina"]["counted_by"] == "Ruth"
    totals = over.json()
    assert (totals["recorded_total"], totals["counted_total"], totals["difference"], totals["uncounted"]) == (
        4_200,
        4_100,
        -100,
        0,
    )
    assert (totals["signed_off"], totals["can_reconcile"]) == (False, True)


def test_a_count_can_be_corrected_until_the_sign_off_and_each_change_is_audited(
    campaign, event, make_api_client, treasurer_client, treasurer
):
    amina, amina_key = usher_client(campaign, make_api_client, "Amina")
    cash(amina, event, 1_000)

    count(treasurer_client, event, amina_key, 900)
    count(treasurer_client, event, amina_key, 900)  # the same again: nothing changes
    corrected = count(treasurer_client, event, amina_key, 1_000, note="Recounted")

    assert by_name(corrected)["Amina"]["difference"] == 0
    audits = AuditEntry.objects.filter(action=AuditAction.CASH_COUNTED).order_by("at", "id")
    assert [(a.actor, a.before, a.after["counted"], a.after["recorded"]) for a in audits] == [
        (treasurer, {}, 900, 1_000),
        (treasurer, {"counted": 900, "note": ""}, 1_000, 1_000),
    ]


def test_the_sign_off_freezes_the_counts_and_a_change_is_refused_with_a_clear_message(
    campaign, event, make_api_client, organizer_client, treasurer_client
):
    amina, amina_key = usher_client(campaign, make_api_client, "Amina")
    cash(amina, event, 1_000)
    count(treasurer_client, event, amina_key, 1_000)
    close(organizer_client, event)

    signed = sign_off(treasurer_client, event)
    changed = count(organizer_client, event, amina_key, 1_200, note="Found more")
    again = sign_off(organizer_client, event)

    assert signed.status_code == 200, signed.content
    assert (signed.json()["signed_off"], signed.json()["signed_off_by"]) == (True, "Ruth")
    assert (changed.status_code, changed.json()["code"]) == (400, "signed_off")
    assert "signed off by Ruth" in changed.json()["detail"]
    assert "withdraw the sign-off" in changed.json()["detail"]
    assert again.json()["code"] == "signed_off"
    assert CashCount.objects.get().counted == 1_000
    audit = AuditEntry.objects.get(action=AuditAction.CASH_SIGNED_OFF)
    assert (audit.after["recorded"], audit.after["counted"], audit.after["difference"]) == (1_000, 1_000, 0)
    assert audit.after["ushers"] == [{"usher": "Amina", "recorded": 1_000, "entries": 1, "counted": 1_000, "note": ""}]


def test_the_sign_off_waits_for_the_close_every_count_and_a_note_on_every_difference(
    campaign, event, make_api_client, organizer_client, treasurer_client
):
    amina, amina_key = usher_client(campaign, make_api_client, "Amina")
    baraka, baraka_key = usher_client(campaign, make_api_client, "Baraka")
    cash(amina, event, 1_000)
    cash(baraka, event, 500)
    count(treasurer_client, event, amina_key, 900)

    still_open = sign_off(treasurer_client, event)
    close(organizer_client, event)
    uncounted = sign_off(treasurer_client, event)
    count(treasurer_client, event, baraka_key, 500)
    unexplained = sign_off(treasurer_client, event)
    count(treasurer_client, event, amina_key, 900, note="Ksh 100 short: the usher gave change")
    signed = sign_off(treasurer_client, event)

    assert (still_open.status_code, still_open.json()["code"]) == (400, "event_not_closed")
    assert (uncounted.json()["code"], "Baraka" in uncounted.json()["detail"]) == ("uncounted", True)
    assert (unexplained.json()["code"], "Amina" in unexplained.json()["detail"]) == (
        "difference_unexplained",
        True,
    )
    assert signed.status_code == 200
    assert AuditEntry.objects.filter(action=AuditAction.CASH_SIGNED_OFF).count() == 1


def test_cash_delivered_after_the_sign_off_is_shown_apart_and_the_signed_figures_stay(
    campaign, event, make_api_client, organizer_client, treasurer_client
):
    amina, amina_key = usher_client(campaign, make_api_client, "Amina")
    cash(amina, event, 1_000)
    count(treasurer_client, event, amina_key, 1_000)
    close(organizer_client, event)
    sign_off(treasurer_client, event)

    # Amina's phone kept two envelopes offline; Baraka's was offline all night.
    cash(amina, event, 300, 200)
    baraka, _baraka_key = usher_client(campaign, make_api_client, "Baraka")
    cash(baraka, event, 800)
    answer = reconciliation(treasurer_client, event)

    ushers = by_name(answer)
    assert (ushers["Amina"]["recorded_count"], ushers["Amina"]["recorded_total"]) == (1, 1_000)
    assert (ushers["Amina"]["difference"], ushers["Amina"]["late_count"]) == (0, 2)
    assert ushers["Amina"]["late_total"] == 500
    assert (ushers["Baraka"]["recorded_total"], ushers["Baraka"]["counted"]) == (0, None)
    assert (ushers["Baraka"]["late_count"], ushers["Baraka"]["late_total"]) == (1, 800)
    figures = answer.json()
    assert (figures["recorded_total"], figures["counted_total"], figures["difference"]) == (1_000, 1_000, 0)
    assert (figures["late_count"], figures["late_total"], figures["signed_off"]) == (3, 1_300, True)


def test_withdrawing_the_sign_off_needs_a_reason_reopens_the_counts_with_the_late_cash_and_needs_a_new_sign_off(
    campaign, event, make_api_client, organizer_client, treasurer_client, treasurer
):
    amina, amina_key = usher_client(campaign, make_api_client, "Amina")
    cash(amina, event, 1_000)
    count(treasurer_client, event, amina_key, 1_000)
    close(organizer_client, event)
    sign_off(treasurer_client, event)
    cash(amina, event, 500)

    no_reason = reopen(treasurer_client, event, reason="  ")
    reopened = reopen(treasurer_client, event)
    twice = reopen(treasurer_client, event)

    assert no_reason.status_code == 422
    assert reopened.status_code == 200, reopened.content
    figures = reopened.json()
    assert (figures["signed_off"], figures["reopened_by"], figures["reopen_reason"]) == (
        False,
        "Ruth",
        "Recount: an envelope was found",
    )
    amina_row = by_name(reopened)["Amina"]
    assert (amina_row["recorded_total"], amina_row["difference"], amina_row["late_total"]) == (1_500, -500, 0)
    assert (twice.status_code, twice.json()["code"]) == (400, "not_signed_off")
    withdrawn = AuditEntry.objects.get(action=AuditAction.CASH_SIGN_OFF_WITHDRAWN)
    assert (withdrawn.actor, withdrawn.after, withdrawn.before["recorded"], withdrawn.before["late"]) == (
        treasurer,
        {"reason": "Recount: an envelope was found"},
        1_000,
        500,
    )

    corrected = count(treasurer_client, event, amina_key, 1_500, note="With the late envelope")
    signed_again = sign_off(organizer_client, event)

    assert corrected.status_code == signed_again.status_code == 200
    assert (signed_again.json()["recorded_total"], signed_again.json()["difference"]) == (1_500, 0)
    assert AuditEntry.objects.filter(action=AuditAction.CASH_SIGNED_OFF).count() == 2


def test_a_volunteer_who_recorded_nothing_can_be_counted_and_strangers_cannot(
    campaign, event, make_api_client, organizer_client, treasurer_client
):
    passcode_client(organizer_client, make_api_client, event, volunteer="Mary Wambui")
    listed = by_name(reconciliation(treasurer_client, event))
    key = listed["Mary Wambui"]["usher_key"]

    counted = count(treasurer_client, event, key, 400, note="Her phone died")
    stranger = count(treasurer_client, event, f"user-{UserFactory.create().pk}", 100)
    nonsense = count(treasurer_client, event, "passcode-abc", 100)

    assert (listed["Mary Wambui"]["recorded_total"], listed["Mary Wambui"]["counted"]) == (0, None)
    assert by_name(counted)["Mary Wambui"]["difference"] == 400
    assert stranger.status_code == nonsense.status_code == 404
    assert CashCount.objects.count() == 1


def test_bad_counts_are_refused_and_change_nothing(campaign, event, make_api_client, treasurer_client):
    amina, amina_key = usher_client(campaign, make_api_client, "Amina")
    cash(amina, event, 1_000)

    negative = count(treasurer_client, event, amina_key, -1)
    too_long = count(treasurer_client, event, amina_key, 10, note="x" * 301)

    assert negative.status_code == too_long.status_code == 422
    assert not CashCount.objects.exists()
    assert not AuditEntry.objects.filter(action=AuditAction.CASH_COUNTED).exists()


def test_only_owners_treasurers_and_admins_count_viewers_see_and_ushers_and_passcodes_do_neither(
    campaign, event, make_api_client, organizer_client
):
    amina, amina_key = usher_client(campaign, make_api_client, "Amina")
    cash(amina, event, 1_000)
    viewer = member_client(campaign, make_api_client, Role.VIEWER)
    volunteer = passcode_client(organizer_client, make_api_client, event)
    admin = make_api_client(signed_in_as=UserFactory.create(is_staff=True, is_superuser=True))

    assert reconciliation(viewer, event).json()["can_reconcile"] is False
    assert count(viewer, event, amina_key, 1_000).status_code == 403
    assert reconciliation(amina, event).status_code == 403
    assert count(amina, event, amina_key, 1_000).status_code == 403
    assert [
        reconciliation(volunteer, event).status_code,
        count(volunteer, event, amina_key, 1_000).status_code,
        sign_off(volunteer, event).status_code,
        reopen(volunteer, event).status_code,
    ] == [401] * 4
    assert count(admin, event, amina_key, 1_000).status_code == 200
    assert reconciliation(make_api_client(signed_in_as=UserFactory.create()), event).status_code == 403


def test_a_scheduled_event_has_no_cash_to_count(campaign, make_api_client, treasurer_client):
    scheduled = open_event(campaign)
    scheduled.opened_at = None
    scheduled.save()

    answer = count(treasurer_client, scheduled, "user-1", 100)

    assert (answer.status_code, answer.json()["code"]) == (400, "event_not_open")
    assert reconciliation(treasurer_client, scheduled).json()["ushers"] == []
    assert not DeskEntry.objects.exists()
