"""The USSD menu: which screen a caller's input leads to, in their language.

Africa's Talking sends at every step everything typed in the session, joined by ``*``. The menu
replays it from the first screen each time, so a step may reach any instance and a retried step
gets the same screen; ``0`` goes back, ``00`` to the first screen, and input a screen cannot take
shows that screen again with a short reason. Nothing is written here: a walk that reaches a closing
choice (confirm a pledge, pay, give, my pledges) returns it as a ``Final``, which ``services``
carries out once per session.

Every screen fits ``SCREEN_MAX`` characters: campaign titles are shortened to fit, in plain
characters only (``_plain``; hence ``...`` rather than the ellipsis character): Africa's Talking
warns that networks cannot render special characters, and one outside the GSM alphabet would make
the whole screen UCS-2, which halves what fits.
"""

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _

from champions.selectors import champion_open_get
from common.money import AMOUNT_MAX, format_ksh
from pledges.instalments import Frequency, PlanByCount, schedule
from pledges.models import Pledge
from pledges.services import (
    phone_plan_most_instalments,
    phone_plan_refusal,
    phone_plan_terms,
    pledge_amount_refusal,
)
from ussd.selectors import caller_open_pledges, open_campaign_get

SCREEN_MAX = 182
ELLIPSIS = "..."
PAGE_SIZE = 3
BACK, HOME, MORE = "0", "00", "9"
# The other language's option is named in that language, whichever is shown.
LANGUAGE_NAMES = {"en": "English", "sw": "Kiswahili"}
# Typographic marks titles often hold, as their plain equivalents.
TYPOGRAPHY = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2014": "-"})


@dataclass(frozen=True)
class Screen:
    name: str
    args: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Final:
    """A closing choice: ``pledge``, ``pay``, ``give`` or ``my_pledges``, with what it needs."""

    action: str
    args: dict[str, Any] = field(default_factory=dict)


@dataclass
class Walk:
    phone: str
    language: str
    stack: list[Screen] = field(default_factory=lambda: [Screen("home")])
    error: str = ""
    language_chosen: bool = False
    final: Final | None = None
    _open_pledges: list[Pledge] | None = None

    @property
    def screen(self) -> Screen:
        return self.stack[-1]

    def open_pledges(self) -> list[Pledge]:
        """The caller's open pledges, read once per walk."""
        if self._open_pledges is None:
            self._open_pledges = caller_open_pledges(phone=self.phone)
        return self._open_pledges


def walk(*, text: str, phone: str, language: str) -> Walk:
    """Replay ``text`` (the gateway's ``*``-joined input) from the first screen."""
    state = Walk(phone=phone, language=language)
    for answer in text.split("*") if text else []:
        with translation.override(state.language):
            _step(state, answer.strip())
        if state.final is not None:
            break
    return state


def _step(state: Walk, answer: str) -> None:
    if answer == HOME:
        state.stack, state.error = [Screen("home")], ""
        return
    if answer == BACK and len(state.stack) > 1:
        state.stack.pop()
        state.error = ""
        return
    outcome = HANDLERS[state.screen.name](state, state.screen.args, answer)
    if isinstance(outcome, Screen):
        state.stack.append(outcome)
        state.error = ""
    elif isinstance(outcome, Final):
        state.final = outcome
    else:
        state.error = outcome


def _choose_again() -> str:
    return _("Please choose a number from the list.")


def _whole(answer: str) -> int | None:
    """Whole shillings typed as digits, from 1 to AMOUNT_MAX."""
    if not answer.isdigit() or len(answer) > len(str(AMOUNT_MAX)):
        return None
    amount = int(answer)
    return amount if 1 <= amount <= AMOUNT_MAX else None


# What each screen does with an answer: the next screen, a closing choice, or why it cannot be
# taken (the same screen again; an empty reason shows it again as it is).
Outcome = Screen | Final | str


def _home(state: Walk, args: dict[str, Any], answer: str) -> Outcome:
    if answer == "5":
        state.language = "sw" if state.language == "en" else "en"
        state.language_chosen = True
        return ""
    choices: dict[str, Outcome] = {
        "1": Screen("campaign", {"purpose": "pledge"}),
        "2": Screen("pay_list", {"page": 0}),
        "3": Final("my_pledges"),
        "4": Screen("campaign", {"purpose": "give"}),
        "6": Screen("champion"),
    }
    return choices.get(answer, _choose_again())


def _champion(state: Walk, args: dict[str, Any], answer: str) -> Outcome:
    champion = champion_open_get(code=answer) if len(answer) <= 20 else None
    if champion is None:
        return _("No champion of an open campaign has the code %(code)s.") % {"code": _plain(answer)[:12]}
    return Screen("champion_found", {"champion": champion, "campaign": champion.campaign})


def _champion_found(state: Walk, args: dict[str, Any], answer: str) -> Outcome:
    purposes = {"1": "pledge", "2": "give"}
    if answer not in purposes:
        return _choose_again()
    return Screen("amount", {**args, "purpose": purposes[answer]})


def _campaign(state: Walk, args: dict[str, Any], answer: str) -> Outcome:
    if not answer.isdigit():
        return _("Please enter the campaign number in digits.")
    campaign = open_campaign_get(number=int(answer)) if len(answer) <= 18 else None
    if campaign is None:
        return _("No open campaign has the number %(number)s.") % {"number": answer[:12]}
    return Screen("amount", {**args, "campaign": campaign})


def _amount(state: Walk, args: dict[str, Any], answer: str) -> Outcome:
    amount = _whole(answer)
    if amount is None:
        return _("Please enter a whole amount in Ksh, like 500.")
    if args["purpose"] == "give":
        return Final("give", {**args, "amount": amount})
    if refusal := pledge_amount_refusal(campaign=args["campaign"], amount=amount):
        return refusal
    return Screen("plan", {**args, "amount": amount})


PLAN_FREQUENCIES = {"2": Frequency.WEEKLY, "3": Frequency.MONTHLY}


def _plan(state: Walk, args: dict[str, Any], answer: str) -> Outcome:
    if answer == "1":
        return Screen("visibility", {**args, "plan": None})
    if answer not in PLAN_FREQUENCIES:
        return _choose_again()
    frequency = PLAN_FREQUENCIES[answer]
    # Two instalments is the fewest: refused, the campaign ends too soon for this frequency.
    if refusal := phone_plan_refusal(campaign=args["campaign"], amount=args["amount"], plan=PlanByCount(2, frequency)):
        return refusal
    return Screen("plan_count", {**args, "frequency": frequency})


def _plan_count(state: Walk, args: dict[str, Any], answer: str) -> Outcome:
    args = dict(args)
    plan = PlanByCount(int(answer) if answer.isdigit() and len(answer) <= 3 else 0, args.pop("frequency"))
    if refusal := phone_plan_refusal(campaign=args["campaign"], amount=args["amount"], plan=plan):
        return refusal
    return Screen("visibility", {**args, "plan": plan})


def _visibility(state: Walk, args: dict[str, Any], answer: str) -> Outcome:
    if answer not in ("1", "2"):
        return _choose_again()
    return Screen("confirm", {**args, "anonymous": answer == "2"})


def _confirm(state: Walk, args: dict[str, Any], answer: str) -> Outcome:
    return Final("pledge", args) if answer == "1" else _choose_again()


def _pay_page(state: Walk, page: int) -> tuple[list[Pledge], bool]:
    """The pledges listed on page ``page`` of 'Pay a pledge', and whether more follow."""
    pledges = state.open_pledges()
    start = page * PAGE_SIZE
    return pledges[start : start + PAGE_SIZE], len(pledges) > start + PAGE_SIZE


def _pay_list(state: Walk, args: dict[str, Any], answer: str) -> Outcome:
    shown, more = _pay_page(state, args["page"])
    if answer == MORE and more:
        return Screen("pay_list", {"page": args["page"] + 1})
    if answer.isdigit() and 1 <= int(answer) <= len(shown):
        return Screen("pay_choice", {"pledge": shown[int(answer) - 1]})
    return _choose_again()


def _pay_choice(state: Walk, args: dict[str, Any], answer: str) -> Outcome:
    if answer == "1":
        return Final("pay", {**args, "amount": args["pledge"].amount_due()})
    if answer == "2":
        return Screen("pay_amount", args)
    return _choose_again()


def _pay_amount(state: Walk, args: dict[str, Any], answer: str) -> Outcome:
    left = args["pledge"].remaining_amount
    amount = _whole(answer)
    if amount is None or amount > left:
        return _("Please enter an amount from Ksh 1 to %(left)s.") % {"left": format_ksh(left)}
    return Final("pay", {**args, "amount": amount})


HANDLERS: dict[str, Callable[[Walk, dict[str, Any], str], Outcome]] = {
    "home": _home,
    "campaign": _campaign,
    "champion": _champion,
    "champion_found": _champion_found,
    "amount": _amount,
    "plan": _plan,
    "plan_count": _plan_count,
    "visibility": _visibility,
    "confirm": _confirm,
    "pay_list": _pay_list,
    "pay_choice": _pay_choice,
    "pay_amount": _pay_amount,
}


# Screens ---------------------------------------------------------------------------------------


def _plain(text: str) -> str:
    """``text`` in characters every phone shows in the GSM alphabet: accents dropped, others left out."""
    decomposed = unicodedata.normalize("NFKD", text.translate(TYPOGRAPHY))
    return " ".join(decomposed.encode("ascii", "ignore").decode().split())


def shortened(text: str, length: int) -> str:
    """``text`` in plain characters, cut to ``length`` with an ellipsis when longer."""
    text = _plain(text)
    if len(text) <= length:
        return text
    if length <= len(ELLIPSIS):
        return ""
    return text[: length - len(ELLIPSIS)].rstrip() + ELLIPSIS


def fitted(build: Callable[[int], str], *, limit: int = SCREEN_MAX) -> str:
    """``build(n)`` (a screen whose titles are shortened to ``n`` characters) for the largest ``n``
    whose screen fits ``limit``."""
    for length in range(limit, -1, -1):
        screen = build(length)
        if len(screen) <= limit:
            return screen
    raise AssertionError("a screen does not fit even without its titles")


def _screen_home(state: Walk, args: dict[str, Any], title_length: int) -> str:
    other = LANGUAGE_NAMES["sw" if state.language == "en" else "en"]
    return "\n".join(
        [
            "Harambee",
            "1. " + _("Pledge"),
            "2. " + _("Pay a pledge"),
            "3. " + _("My pledges"),
            "4. " + _("Give now"),
            f"5. {other}",
            "6. " + _("Give through a champion"),
        ]
    )


def _screen_campaign(state: Walk, args: dict[str, Any], title_length: int) -> str:
    return _("Enter the campaign number:")


def _screen_champion(state: Walk, args: dict[str, Any], title_length: int) -> str:
    return _("Enter the champion's code:")


def _screen_champion_found(state: Walk, args: dict[str, Any], title_length: int) -> str:
    return "\n".join(
        [
            _("Champion %(name)s for %(title)s")
            % {
                "name": shortened(args["champion"].name, title_length),
                "title": shortened(args["campaign"].title, title_length),
            },
            "1. " + _("Pledge"),
            "2. " + _("Give now"),
        ]
    )


def _screen_amount(state: Walk, args: dict[str, Any], title_length: int) -> str:
    question = _("Amount to pledge in Ksh:") if args["purpose"] == "pledge" else _("Amount to give in Ksh:")
    return f"{shortened(args['campaign'].title, title_length)}\n{question}"


def _screen_plan(state: Walk, args: dict[str, Any], title_length: int) -> str:
    return "\n".join(
        [
            _("How will you pay %(amount)s?") % {"amount": format_ksh(args["amount"])},
            "1. " + _("All at once"),
            "2. " + _("Weekly instalments"),
            "3. " + _("Monthly instalments"),
        ]
    )


def _screen_plan_count(state: Walk, args: dict[str, Any], title_length: int) -> str:
    most = phone_plan_most_instalments(campaign=args["campaign"], amount=args["amount"], frequency=args["frequency"])
    if args["frequency"] == Frequency.WEEKLY:
        return _("How many weekly instalments? 2 to %(most)s:") % {"most": most}
    return _("How many monthly instalments? 2 to %(most)s:") % {"most": most}


def plan_line(*, amount: int, plan: PlanByCount) -> str:
    """'3 monthly instalments of Ksh 4,000' (the last may be less), for the confirmations."""
    terms = phone_plan_terms(amount=amount, plan=plan)
    count = len(
        schedule(total=amount, instalment=terms.instalment, frequency=plan.frequency, first_due_on=terms.first_due_on)
    )
    values = {"count": count, "amount": format_ksh(terms.instalment)}
    if plan.frequency == Frequency.WEEKLY:
        return _("%(count)s weekly instalments of %(amount)s") % values
    return _("%(count)s monthly instalments of %(amount)s") % values


def _screen_visibility(state: Walk, args: dict[str, Any], title_length: int) -> str:
    return "\n".join([_("Show your pledge publicly?"), "1. " + _("Yes, as a caller"), "2. " + _("No, anonymous")])


def _screen_confirm(state: Walk, args: dict[str, Any], title_length: int) -> str:
    lines = [
        _("Pledge %(amount)s to %(title)s?")
        % {"amount": format_ksh(args["amount"]), "title": shortened(args["campaign"].title, title_length)}
    ]
    if args["plan"] is not None:
        lines.append(plan_line(amount=args["amount"], plan=args["plan"]))
    if args.get("champion") is not None:
        lines.append(_("Through %(name)s") % {"name": shortened(args["champion"].name, title_length)})
    if args["anonymous"]:
        lines.append(_("Anonymous"))
    lines.append("1. " + _("Confirm"))
    return "\n".join(lines)


def _screen_pay_list(state: Walk, args: dict[str, Any], title_length: int) -> str:
    shown, more = _pay_page(state, args["page"])
    if not shown:
        return _("You have no pledges left to pay.")
    lines = [_("Choose a pledge to pay:")]
    for number, pledge in enumerate(shown, start=1):
        line = _("%(code)s %(title)s %(left)s left") % {
            "code": pledge.code,
            "title": shortened(pledge.campaign.title, title_length),
            "left": format_ksh(pledge.remaining_amount),
        }
        lines.append(f"{number}. " + " ".join(line.split()))
    if more:
        lines.append(f"{MORE}. " + _("More"))
    return "\n".join(lines)


def _screen_pay_choice(state: Walk, args: dict[str, Any], title_length: int) -> str:
    pledge: Pledge = args["pledge"]
    left, due = format_ksh(pledge.remaining_amount), pledge.amount_due()
    lines = [
        f"{pledge.code} {shortened(pledge.campaign.title, title_length)}".strip(),
        _("Left to pay: %(left)s") % {"left": left},
    ]
    if due < pledge.remaining_amount:
        # On a plan: the instalment due (or what is overdue) first.
        lines += ["1. " + _("Pay the %(due)s due") % {"due": format_ksh(due)}, "2. " + _("Pay another amount")]
    else:
        lines += ["1. " + _("Pay all %(left)s") % {"left": left}, "2. " + _("Pay part of it")]
    return "\n".join(lines)


def _screen_pay_amount(state: Walk, args: dict[str, Any], title_length: int) -> str:
    pledge: Pledge = args["pledge"]
    return _("%(code)s: amount in Ksh, at most %(left)s:") % {
        "code": pledge.code,
        "left": format_ksh(pledge.remaining_amount),
    }


SCREENS: dict[str, Callable[[Walk, dict[str, Any], int], str]] = {
    "home": _screen_home,
    "campaign": _screen_campaign,
    "champion": _screen_champion,
    "champion_found": _screen_champion_found,
    "amount": _screen_amount,
    "plan": _screen_plan,
    "plan_count": _screen_plan_count,
    "visibility": _screen_visibility,
    "confirm": _screen_confirm,
    "pay_list": _screen_pay_list,
    "pay_choice": _screen_pay_choice,
    "pay_amount": _screen_pay_amount,
}


def screen_text(state: Walk) -> str:
    """The screen the walk stands on, in its language: the reason its last answer was refused, the
    screen, and (past the first screen) how to go back, within ``SCREEN_MAX``."""
    screen = state.screen

    def build(title_length: int) -> str:
        lines = [state.error] if state.error else []
        lines.append(SCREENS[screen.name](state, screen.args, title_length))
        if screen.name != "home":
            lines.append(_("0 Back 00 Home"))
        return "\n".join(lines)

    with translation.override(state.language):
        return fitted(build)
