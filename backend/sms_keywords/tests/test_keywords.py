"""Reading a text: the keyword in either language and any case, spaces anywhere, arguments checked."""

import pytest

from pledges.codes import is_valid_code
from pledges.instalments import Frequency, PlanByCount
from sms_keywords.keywords import Action, Command, parse

# A valid pledge code, fixed rather than new each run: the test ids show it, and every pytest-xdist worker
# must collect the same ids.
CODE = "7TKDAFT"
MONTHLY_3 = PlanByCount(3, Frequency.MONTHLY)
WEEKLY_4 = PlanByCount(4, Frequency.WEEKLY)


def test_the_code_in_these_texts_is_a_valid_pledge_code():
    assert is_valid_code(CODE)


@pytest.mark.parametrize(
    ("text", "command"),
    [
        ("PLEDGE 14 5000", Command(Action.PLEDGE, "en", campaign_number=14, amount=5000)),
        ("  ahadi   14  5,000 ", Command(Action.PLEDGE, "sw", campaign_number=14, amount=5000)),
        ("Pledge\t14\n5000", Command(Action.PLEDGE, "en", campaign_number=14, amount=5000)),
        ("PLEDGE 14 12000 3M", Command(Action.PLEDGE, "en", campaign_number=14, amount=12000, plan=MONTHLY_3)),
        ("ahadi 14 12,000 3m", Command(Action.PLEDGE, "sw", campaign_number=14, amount=12000, plan=MONTHLY_3)),
        ("AHADI 14 10000 4W", Command(Action.PLEDGE, "sw", campaign_number=14, amount=10000, plan=WEEKLY_4)),
        ("PLEDGE k7p-2qx 5000", Command(Action.PLEDGE, "en", champion_code="K7P2QX", amount=5000)),
        ("AHADI K7P2QX 12000 3M", Command(Action.PLEDGE, "sw", champion_code="K7P2QX", amount=12000, plan=MONTHLY_3)),
        ("PLEDGE K7P2QX", Command(Action.PLEDGE, "en", well_formed=False)),
        ("PLEDGE 14 12000 3", Command(Action.PLEDGE, "en", well_formed=False)),
        ("PLEDGE 14 12000 3Y", Command(Action.PLEDGE, "en", well_formed=False)),
        ("PLEDGE 14 12000 3M extra", Command(Action.PLEDGE, "en", well_formed=False)),
        ("PLEDGE 14", Command(Action.PLEDGE, "en", well_formed=False)),
        ("PLEDGE fourteen 5000", Command(Action.PLEDGE, "en", well_formed=False)),
        ("AHADI 14 5.000,50", Command(Action.PLEDGE, "sw", well_formed=False)),
        (f"pay {CODE.lower()}", Command(Action.PAY, "en", code=CODE)),
        (f"LIPA {CODE}  500", Command(Action.PAY, "sw", code=CODE, amount=500)),
        ("PAY ABCDEFG", Command(Action.PAY, "en", code="ABCDEFG")),  # no valid code: no pledge has it
        ("PAY 12345", Command(Action.PAY, "en", well_formed=False)),
        (f"PAY {CODE} lots", Command(Action.PAY, "en", well_formed=False)),
        ("bal", Command(Action.BALANCE, "en")),
        (" Salio ", Command(Action.BALANCE, "sw")),
        ("STOP", Command(Action.STOP, "en")),
        ("sitisha", Command(Action.STOP, "sw")),
        ("help", Command(Action.HELP, "en")),
        ("MSAADA", Command(Action.HELP, "sw")),
        ("Habari yako", Command(Action.HELP)),
        ("", Command(Action.HELP)),
    ],
)
def test_a_text_is_read_as_its_keyword_and_arguments(text, command):
    assert parse(text) == command


def test_the_keyword_rented_on_a_shared_shortcode_is_set_aside():
    assert parse("harambee PLEDGE 14 5000", shared_keyword="HARAMBEE") == Command(
        Action.PLEDGE, "en", campaign_number=14, amount=5000
    )
    assert parse("HARAMBEE", shared_keyword="HARAMBEE") == Command(Action.HELP)
    assert parse("HARAMBEE BAL") == Command(Action.HELP)
