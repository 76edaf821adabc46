"""What a text to the shortcode asks for: the first word is the keyword, in English or Kiswahili
(any case), the rest its arguments, however many spaces stand between them.

    PLEDGE 14 5000   AHADI 14 5000     a pledge of Ksh 5,000 to campaign number 14
    PLEDGE 14 12000 3M                  ... paid in 3 monthly instalments (4W: 4 weekly; AHADI alike)
    PLEDGE K7P2QX 5000                  a pledge through the champion with code K7P2QX, to their campaign
    PAY ABC1234      LIPA ABC1234      pay what is left of pledge ABC1234 (or: PAY ABC1234 500)
    BAL              SALIO             open pledges and what is left of each
    STOP             SITISHA           no more reminders for any pledge of this number
    HELP             MSAADA            these keywords

Anything else, and a keyword whose arguments do not fit, gets the help text; a PAY with a word that
looks like a code but is none (a typing mistake) is carried out, and told that no pledge has it. On a shared shortcode
the texts start with the keyword rented there, which is set aside. Amounts may be
written with thousands separators ('5,000'). Only parsing here: no reads, no writes.
"""

import re
from dataclasses import dataclass
from enum import StrEnum

from champions import codes as champion_codes
from pledges import codes
from pledges.instalments import Frequency, PlanByCount


class Action(StrEnum):
    PLEDGE = "pledge"
    PAY = "pay"
    BALANCE = "balance"
    STOP = "stop"
    HELP = "help"


KEYWORDS: dict[str, tuple[Action, str]] = {
    "PLEDGE": (Action.PLEDGE, "en"),
    "AHADI": (Action.PLEDGE, "sw"),
    "PAY": (Action.PAY, "en"),
    "LIPA": (Action.PAY, "sw"),
    "BAL": (Action.BALANCE, "en"),
    "BALANCE": (Action.BALANCE, "en"),
    "SALIO": (Action.BALANCE, "sw"),
    "STOP": (Action.STOP, "en"),
    "SITISHA": (Action.STOP, "sw"),
    "HELP": (Action.HELP, "en"),
    "MSAADA": (Action.HELP, "sw"),
}

AMOUNT = re.compile(r"^\d{1,3}(,\d{3})+$|^\d+$")
# What may be a pledge code, rightly typed or not: letters and digits, at least one letter, about its length.
CODE_LIKE = re.compile(r"^(?=.*[A-Z])[A-Z0-9]{5,10}$")
# How many instalments and how often: M monthly (mwezi), W weekly (wiki), the same in both languages.
PLAN = re.compile(r"^(\d{1,3})([MW])$", re.IGNORECASE)
PLAN_FREQUENCIES = {"M": Frequency.MONTHLY, "W": Frequency.WEEKLY}
# What may be a champion's code, rightly typed or not: six letters and digits, at least one letter (as
# every champion's code has: ``champions.codes.new_code``; digits alone are a campaign number).
CHAMPION_CODE_LIKE = re.compile(rf"^(?=.*[A-Z])[A-Z0-9]{{{champion_codes.CODE_LENGTH}}}$")
# Campaign numbers are ids; an absurdly long one is no campaign's.
NUMBER_DIGITS_MAX = 9


@dataclass(frozen=True)
class Command:
    action: Action
    language: str | None = None  # None: no keyword recognised (the sender's remembered language is used)
    well_formed: bool = True  # False: the keyword's arguments do not fit (its own usage line is the answer)
    campaign_number: int | None = None
    amount: int | None = None
    code: str = ""
    plan: PlanByCount | None = None  # PLEDGE: the instalments asked for, if any
    champion_code: str = ""  # PLEDGE: through this champion (to their campaign) instead of a campaign number


def _amount(word: str) -> int | None:
    return int(word.replace(",", "")) if AMOUNT.match(word) else None


def _plan(word: str) -> PlanByCount | None:
    match = PLAN.match(word)
    return PlanByCount(int(match[1]), PLAN_FREQUENCIES[match[2].upper()]) if match else None


def _pledge_target(word: str) -> tuple[int | None, str] | None:
    """Whom a PLEDGE names: a campaign by its number, or a champion by their code."""
    if word.isdigit():
        return (int(word), "") if len(word) <= NUMBER_DIGITS_MAX else None
    code = champion_codes.normalize(word)
    return (None, code) if CHAMPION_CODE_LIKE.match(code) else None


def parse(text: str, *, shared_keyword: str = "") -> Command:
    """What ``text`` asks for. On a shared shortcode every text starts with the organization's own
    ``shared_keyword`` (e.g. 'HARAMBEE PLEDGE 14 5000'): it is set aside first."""
    words = text.split()
    if shared_keyword and words and words[0].upper() == shared_keyword.upper():
        words = words[1:]
    if not words or words[0].upper() not in KEYWORDS:
        return Command(Action.HELP)
    action, language = KEYWORDS[words[0].upper()]
    arguments = words[1:]
    if action == Action.PLEDGE:
        if len(arguments) in (2, 3):
            amount = _amount(arguments[1])
            plan = _plan(arguments[2]) if len(arguments) == 3 else None
            target = _pledge_target(arguments[0])
            if target is not None and amount is not None and (plan is not None or len(arguments) == 2):
                number, champion_code = target
                return Command(
                    action, language, campaign_number=number, champion_code=champion_code, amount=amount, plan=plan
                )
        return Command(action, language, well_formed=False)
    if action == Action.PAY:
        # A mistyped code is still the code the sender meant: the answer says no pledge has it.
        if len(arguments) in (1, 2) and CODE_LIKE.match(codes.normalize(arguments[0])):
            amount = _amount(arguments[1]) if len(arguments) == 2 else None
            if len(arguments) == 1 or amount is not None:
                return Command(action, language, code=codes.normalize(arguments[0]), amount=amount)
        return Command(action, language, well_formed=False)
    return Command(action, language)
