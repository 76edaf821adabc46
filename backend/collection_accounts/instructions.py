"""How to pay into an organization's accounts: the one place that words it, for every channel (the
campaign page, the pledge receipt page, the pledge SMS and e-mail, the donation dialog).

The giver's reference is a pledge code (or a donation's reference); before there is one (the
campaign page) it reads 'your pledge code'. Harambee's own paybill never appears here: an account
cannot be given its number (``validators``), and nothing else is ever shown.
"""

from collections.abc import Iterable
from dataclasses import dataclass

from django.utils.translation import gettext as _

from collection_accounts.models import CollectionAccount, CollectionAccountKind


@dataclass(frozen=True)
class Instruction:
    method: str = ""
    """The account's kind (``CollectionAccountKind``), or ``mpesa`` for a legacy phone number."""
    label: str = ""
    """The way to pay, e.g. 'M-Pesa Paybill'."""
    lines: tuple[tuple[str, str], ...] = ()
    """(label, value) pairs to show, in order."""
    summary: str = ""
    """All of it in one line, for an SMS: 'Paybill 600100, account ABC1234'."""
    note: str = ""
    """One sentence telling the giver what to do."""
    matched_automatically: bool = False
    """Payments this way reach Harambee with the reference (a connected paybill): matched by it."""


def _paybill(account: CollectionAccount, reference: str, shown: str) -> Instruction:
    return Instruction(
        method=account.kind,
        label=_("M-Pesa Paybill"),
        lines=((_("Business number"), account.paybill_number), (_("Account number"), reference)),
        summary=_("Paybill %(paybill)s, account %(reference)s")
        % {"paybill": account.paybill_number, "reference": reference},
        note=_("Use %(reference)s as the account number, so your payment is matched to your pledge.")
        % {"reference": shown},
        matched_automatically=account.mpesa_connected_at is not None,
    )


def _paybill_fixed_account(account: CollectionAccount, reference: str, shown: str) -> Instruction:
    label = _("M-Pesa Paybill (%(bank)s)") % {"bank": account.bank_name} if account.bank_name else _("M-Pesa Paybill")
    return Instruction(
        method=account.kind,
        label=label,
        lines=(
            (_("Business number"), account.paybill_number),
            (_("Account number"), account.account_number),
            (_("Reference"), reference),
        ),
        summary=_("Paybill %(paybill)s, account %(account)s, reference %(reference)s")
        % {"paybill": account.paybill_number, "account": account.account_number, "reference": reference},
        note=_(
            "Use account number %(account)s; where your bank asks for a reference, give %(reference)s, so your payment is matched to your pledge."
        )
        % {"account": account.account_number, "reference": shown},
    )


def _till(account: CollectionAccount, reference: str, shown: str) -> Instruction:
    return Instruction(
        method=account.kind,
        label=_("M-Pesa Till (Buy Goods)"),
        lines=((_("Till number"), account.till_number),),
        summary=_("Buy Goods till %(till)s") % {"till": account.till_number},
        note=_(
            "A till takes no account number: keep your M-Pesa message and tell the treasurer %(reference)s, so they match your payment."
        )
        % {"reference": shown},
    )


def _bank(account: CollectionAccount, reference: str, shown: str) -> Instruction:
    branch = ((_("Branch"), account.bank_branch),) if account.bank_branch else ()
    return Instruction(
        method=account.kind,
        label=_("Bank Transfer"),
        lines=(
            (_("Bank"), account.bank_name),
            *branch,
            (_("Account name"), account.account_name),
            (_("Account number"), account.account_number),
            (_("Reference"), reference),
        ),
        summary=_("%(bank)s account %(account)s (%(name)s), reference %(reference)s")
        % {
            "bank": account.bank_name,
            "account": account.account_number,
            "name": account.account_name,
            "reference": reference,
        },
        note=_("Write %(reference)s as the payment reference, so the treasurer matches your payment.")
        % {"reference": shown},
    )


def _cash(account: CollectionAccount, reference: str, shown: str) -> Instruction:
    return Instruction(
        method=account.kind,
        label=_("Cash"),
        lines=((_("Where"), account.location),),
        summary=_("Cash at %(place)s, mention %(reference)s") % {"place": account.location, "reference": reference},
        note=_("Pay in person and mention %(reference)s: the treasurer records your payment.") % {"reference": shown},
    )


def _airtel_money(account: CollectionAccount, reference: str, shown: str) -> Instruction:
    # The pledge page and the USSD menu send the Airtel push themselves; by hand, the giver pays the
    # merchant from the Airtel Money menu (Make Payments) with the code as the reference.
    return Instruction(
        method=account.kind,
        label=_("Airtel Money"),
        lines=((_("Merchant number"), account.merchant_msisdn), (_("Reference"), reference)),
        summary=_("Airtel Money %(number)s, reference %(reference)s")
        % {"number": account.merchant_msisdn, "reference": reference},
        note=_("Pay from your Airtel line with %(reference)s as the reference, so your payment is matched.")
        % {"reference": shown},
        matched_automatically=account.airtel_connected_at is not None,
    )


WORDINGS = {
    CollectionAccountKind.PAYBILL: _paybill,
    CollectionAccountKind.PAYBILL_FIXED_ACCOUNT: _paybill_fixed_account,
    CollectionAccountKind.TILL: _till,
    CollectionAccountKind.BANK: _bank,
    CollectionAccountKind.CASH: _cash,
    CollectionAccountKind.AIRTEL_MONEY: _airtel_money,
}


def _shown(reference: str | None) -> tuple[str, str]:
    """The reference in the details, and in a sentence ('your pledge code ABC1234')."""
    if reference is None:
        return _("your pledge code"), _("your pledge code")
    return reference, _("your pledge code %(code)s") % {"code": reference}


def account_instruction(account: CollectionAccount, *, reference: str | None) -> Instruction:
    """How to pay into ``account`` with ``reference`` (None: before there is a pledge code)."""
    value, shown = _shown(reference)
    return WORDINGS[CollectionAccountKind(account.kind)](account, value, shown)


def phone_number_instruction(phone_number: str, *, reference: str | None) -> Instruction:
    """A legacy campaign's personal M-Pesa number, kept for the campaigns that had one (new ones
    cannot: money sent to a person's phone is the commonest diversion)."""
    _value, shown = _shown(reference)
    return Instruction(
        method="mpesa",
        label=_("M-Pesa (Send Money)"),
        lines=((_("Phone number"), phone_number),),
        summary=_("Send Money to %(phone)s") % {"phone": phone_number},
        note=_("After paying, tell the organizer %(reference)s so they can confirm your pledge.")
        % {"reference": shown},
    )


def instructions_summary(instructions: Iterable[Instruction]) -> str:
    """The instructions in one line for an SMS: 'Paybill 600100, account ABC1234; Buy Goods till 5123456'."""
    return "; ".join(instruction.summary for instruction in instructions)
