"""Every screen of the menu, in both languages, within 182 characters; wrong input shows the same
screen again with a reason and writes nothing."""

import pytest

from campaigns.tests.factories import CampaignFactory
from champions.services import champion_create
from notifications.models import NotificationLog
from payments.models import Payment
from pledges.models import Pledge
from pledges.tests.factories import make_pledge
from ussd.menu import SCREEN_MAX
from ussd.models import Caller

LONG_TITLE = "Ujenzi wa Kanisa la Mtakatifu Yohana \u2013 Harambee ya Paa, Madawati na Vyoo vya Shule ya Jumapili " * 2


def every_screen(campaign_id: int, champion_code: str) -> list[tuple[str, ...]]:
    """Input leading to each screen, each refusal and each closing screen that writes nothing."""
    c, h = str(campaign_id), champion_code
    return [
        (),
        ("7",),
        ("1",),
        ("1", "abc"),
        ("1", "99999"),
        ("1", c),
        ("1", c, "x"),
        ("1", c, "999999999"),
        ("1", c, "500"),
        ("1", c, "500", "7"),
        ("1", c, "999999", "2"),
        ("1", c, "999999", "3"),
        ("1", c, "999999", "3", "1"),
        ("1", c, "999999", "3", "999"),
        ("1", c, "999999", "3", "6", "1"),
        ("1", c, "999999", "3", "6", "2"),
        ("1", c, "500", "1"),
        ("1", c, "500", "1", "7"),
        ("1", c, "500", "1", "1"),
        ("1", c, "500", "1", "2"),
        ("1", c, "500", "1", "2", "7"),
        ("4",),
        ("4", c),
        ("4", c, "0500x"),
        ("2",),
        ("2", "8"),
        ("2", "9"),
        ("2", "1"),
        ("2", "1", "7"),
        ("2", "1", "2"),
        ("2", "1", "2", "999999999"),
        ("3",),
        ("5",),
        ("6",),
        ("6", "ZZZZZZZZZZZZZZZZZZZZ"),
        ("6", h),
        ("6", h, "7"),
        ("6", h, "1"),
        ("6", h, "1", "500", "1", "2"),
        ("6", h, "2"),
        ("6", h, "2", "0500x"),
    ]


@pytest.fixture
def long_campaign(db):
    # Plans may run past its end: every plan screen is reached.
    return CampaignFactory.create(title=LONG_TITLE[:200], goal=100_000_000, instalments_past_end=True)


@pytest.fixture
def long_champion(long_campaign):
    return champion_create(
        campaign_id=long_campaign.pk,
        user=long_campaign.organizer,
        goal=50_000,
        name="Mwalimu Wanjiru Nyambura Kamau-Otieno wa Jumuiya ya Mtakatifu Petro na Paulo",
        phone="0712000888",
        for_someone_else=True,
    )


@pytest.fixture
def caller_with_pledges(long_campaign, gateway):
    for amount in (999_999, 1_000_000, 12_345, 50_000):
        make_pledge(long_campaign, amount=amount, phone=gateway.phone)
    return gateway


@pytest.mark.parametrize("language", ["en", "sw"])
def test_every_screen_fits_182_characters_in_both_languages(
    caller_with_pledges, long_campaign, long_champion, language
):
    gateway = caller_with_pledges
    Caller.objects.create(phone=gateway.phone, language=language)
    counts = (Pledge.objects.count(), Payment.objects.count(), NotificationLog.objects.count())

    for answers in every_screen(long_campaign.pk, long_champion.code):
        reply = gateway.session(*answers) if answers else gateway.dial()
        screen = reply.removeprefix("CON ").removeprefix("END ")
        assert len(screen) <= SCREEN_MAX, (answers, len(screen), screen)
        assert screen.isascii(), screen

    assert (Pledge.objects.count(), Payment.objects.count()) == counts[:2]
    assert NotificationLog.objects.count() == counts[2] + 1  # the "My pledges" list, by SMS


def test_titles_are_shortened_with_an_ellipsis_to_fit(gateway, long_campaign):
    reply = gateway.session("1", str(long_campaign.pk))

    title = reply.removeprefix("CON ").split("\n")[0]
    assert title.endswith("...") and title.startswith("Ujenzi wa Kanisa la Mtakatifu Yohana - Harambee")
    assert len(reply.removeprefix("CON ")) == SCREEN_MAX


def test_wrong_input_shows_the_same_screen_with_a_reason(gateway, campaign):
    assert gateway.session("1", "abc") == (
        "CON Please enter the campaign number in digits.\nEnter the campaign number:\n0 Back 00 Home"
    )
    assert gateway.send("1*abc*77777") == (
        "CON No open campaign has the number 77777.\nEnter the campaign number:\n0 Back 00 Home"
    )
    assert gateway.send(f"1*abc*77777*{campaign.pk}*000") == (
        "CON Please enter a whole amount in Ksh, like 500.\nChurch Roof Repair\nAmount to pledge in Ksh:\n0 Back 00 Home"
    )
    assert gateway.send(f"1*abc*77777*{campaign.pk}*000*100001") == (
        "CON The largest single pledge to this campaign is Ksh 100,000.\nChurch Roof Repair\n"
        "Amount to pledge in Ksh:\n0 Back 00 Home"
    )
    assert gateway.send(f"1*abc*77777*{campaign.pk}*000*100001*5*0*0") == (
        "CON Enter the campaign number:\n0 Back 00 Home"
    )
    assert not Pledge.objects.exists()


def test_a_closed_or_pending_campaign_is_not_open_to_callers(gateway, campaign):
    campaign.status = "closed"
    campaign.save(update_fields=["status"])

    assert gateway.session("1", str(campaign.pk)).startswith(f"CON No open campaign has the number {campaign.pk}.")


def test_zero_goes_back_and_double_zero_home(gateway, campaign):
    assert gateway.session("1", str(campaign.pk), "0") == "CON Enter the campaign number:\n0 Back 00 Home"
    assert gateway.send(f"1*{campaign.pk}*0*00").startswith("CON Harambee\n1. Pledge")


def test_pay_a_pledge_lists_three_pledges_then_more(gateway, campaign):
    pledges = [make_pledge(campaign, amount=100 + n, phone=gateway.phone) for n in range(4)]

    first_page = gateway.session("2")
    second_page = gateway.send("2*9")

    assert [pledge.code in first_page for pledge in pledges] == [False, True, True, True]
    assert first_page.endswith("9. More\n0 Back 00 Home")
    assert pledges[0].code in second_page and "9. More" not in second_page


def test_a_caller_with_no_open_pledges_is_told_so(gateway):
    assert gateway.session("2") == "CON You have no pledges left to pay.\n0 Back 00 Home"
    assert gateway.session("3") == "END You have no open pledges. Dial again and choose 1 to pledge."
