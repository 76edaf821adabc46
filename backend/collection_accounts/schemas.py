from dataclasses import asdict
from datetime import datetime
from typing import Literal

from ninja import Field, Schema

from collection_accounts.instructions import Instruction
from collection_accounts.models import CollectionAccount, CollectionAccountKind


class CollectionAccountDetails(Schema):
    label: str | None = Field(None, description="A name for the team, up to 80 characters; optional.")
    paybill_number: str | None = Field(None, description="paybill, paybill_fixed_account: the paybill (digits).")
    account_number: str | None = Field(None, description="paybill_fixed_account, bank: the bank account number.")
    till_number: str | None = Field(None, description="till: the Buy Goods till number (digits).")
    store_number: str | None = Field(None, description="till: its store (head office) number, if any (digits).")
    bank_name: str | None = Field(None, description="bank (required), paybill_fixed_account (optional).")
    bank_branch: str | None = Field(None, description="bank: optional.")
    account_name: str | None = Field(None, description="bank: the account's name.")
    location: str | None = Field(None, description="cash: where cash is received.")
    merchant_msisdn: str | None = Field(None, description="airtel_money: the merchant's Airtel number.")


class CollectionAccountIn(CollectionAccountDetails):
    """A new account; the fields its kind does not use are ignored."""

    kind: CollectionAccountKind
    is_default: bool = Field(False, description="Make it the default (the organization's first account always is).")


class CollectionAccountPatchIn(CollectionAccountDetails):
    """New details of an account (its kind stays); a field left out stays as it is."""

    is_default: bool | None = Field(None, description="true: make it the default.")


class CollectionAccountOut(Schema):
    id: int
    kind: CollectionAccountKind
    label: str
    paybill_number: str
    account_number: str
    till_number: str
    store_number: str
    bank_name: str
    bank_branch: str
    account_name: str
    location: str
    merchant_msisdn: str
    is_default: bool
    mpesa_connected_at: datetime | None = Field(description="When it was connected to M-Pesa's API; null if never.")
    offers_stk_push: bool = Field(description="A connected paybill or till: givers get PIN prompts.")
    takes_cards: bool = Field(description="A bank account card payments settle to (its Paystack subaccount).")
    airtel_connected_at: datetime | None = Field(description="When its Airtel Money API credentials were set.")
    offers_airtel_push: bool = Field(description="An Airtel Money account with credentials: givers get USSD push.")
    card_settlement_bank: str = Field(description="The bank's Paystack code given for card payments; '' if none.")

    @staticmethod
    def resolve_offers_stk_push(obj: CollectionAccount) -> bool:
        return obj.offers_stk_push

    @staticmethod
    def resolve_offers_airtel_push(obj: CollectionAccount) -> bool:
        return obj.offers_airtel_push

    @staticmethod
    def resolve_takes_cards(obj: CollectionAccount) -> bool:
        return obj.takes_cards


class InstructionLineOut(Schema):
    label: str = Field(description="E.g. 'Business number', in the site language.")
    value: str


class PaymentInstructionOut(Schema):
    """How to pay into one account (``collection_accounts.instructions``)."""

    method: Literal["paybill", "paybill_fixed_account", "till", "bank", "cash", "airtel_money", "mpesa"] = Field(
        description="The account's kind; mpesa: a legacy campaign's personal M-Pesa number."
    )
    label: str = Field(description="The way to pay, e.g. 'M-Pesa Paybill'.")
    lines: list[InstructionLineOut] = Field(description="The details to show, in order.")
    summary: str = Field(description="All of it in one line: 'Paybill 600100, account ABC1234'.")
    matched_automatically: bool = Field(
        description="Payments this way reach Harambee with the code (a connected paybill): matched by it."
    )
    note: str = Field(description="One sentence telling the giver what to do.")

    @classmethod
    def from_instruction(cls, instruction: Instruction) -> "PaymentInstructionOut":
        return cls.model_validate(
            {
                **asdict(instruction),
                "lines": [{"label": label, "value": value} for label, value in instruction.lines],
            }
        )


class AccountKeywordsIn(Schema):
    keywords: list[str] = Field(
        description="Account numbers that are not for Harambee (e.g. TITHE, OFFERING, SADAKA): 2 to 20 letters or "
        "digits each (case and separators ignored), at most 30. Replaces the list."
    )


class AccountKeywordsOut(Schema):
    keywords: list[str]
