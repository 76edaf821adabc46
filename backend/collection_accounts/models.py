"""Where an organization's money is paid: its own M-Pesa paybill or till, its bank account, its cash
point. Harambee never holds an organization's money; it only tells givers where to pay and matches
what they paid (by the pledge code) to their pledges.

The kinds and how a payment is matched:

| Kind                    | Payer types                                   | Matched by                         |
|-------------------------|-----------------------------------------------|------------------------------------|
| paybill                 | paybill number, the pledge code as account    | C2B confirmation (code = account)  |
| paybill_fixed_account   | a bank's paybill, the church's account number, | statement import (code = reference)|
|                         | the pledge code as reference where allowed    |                                    |
| till                    | Buy Goods till number (no account number)     | STK Push, statement import, by hand|
| bank                    | the bank account, the pledge code as reference| statement import, by hand          |
| cash                    | cash at the cash point                        | recorded by a treasurer            |
| airtel_money            | an Airtel Money merchant number (USSD push)    | Airtel callback, enquiry, statement|
"""

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from organizations.models import Organization


class CollectionAccountKind(models.TextChoices):
    PAYBILL = "paybill", _("M-Pesa paybill")
    PAYBILL_FIXED_ACCOUNT = "paybill_fixed_account", _("Bank collection paybill")
    TILL = "till", _("M-Pesa till (Buy Goods)")
    BANK = "bank", _("Bank account")
    CASH = "cash", _("Cash")
    AIRTEL_MONEY = "airtel_money", _("Airtel Money")


# The fields each kind needs (required) and may have (optional), in the order forms show them.
KIND_FIELDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    CollectionAccountKind.PAYBILL: (("paybill_number",), ()),
    CollectionAccountKind.PAYBILL_FIXED_ACCOUNT: (("paybill_number", "account_number"), ("bank_name",)),
    CollectionAccountKind.TILL: (("till_number",), ("store_number",)),
    CollectionAccountKind.BANK: (("bank_name", "account_name", "account_number"), ("bank_branch",)),
    CollectionAccountKind.CASH: (("location",), ()),
    CollectionAccountKind.AIRTEL_MONEY: (("merchant_msisdn",), ()),
}
DETAIL_FIELDS = (
    "paybill_number",
    "account_number",
    "till_number",
    "store_number",
    "bank_name",
    "bank_branch",
    "account_name",
    "location",
    "merchant_msisdn",
)
# Kinds whose number is an M-Pesa shortcode of the organization's own: they may offer STK Push once
# connected, and their C2B confirmations reach us.
MPESA_KINDS = (CollectionAccountKind.PAYBILL, CollectionAccountKind.TILL)


class CollectionAccount(models.Model):
    organization = models.ForeignKey(Organization, on_delete=models.CASCADE, related_name="collection_accounts")
    kind = models.CharField(max_length=24, choices=CollectionAccountKind.choices)
    label = models.CharField(max_length=80, blank=True, help_text=_("A name for the team, e.g. 'Building fund'."))
    paybill_number = models.CharField(max_length=10, blank=True)
    account_number = models.CharField(
        max_length=64, blank=True, help_text=_("The bank account number (bank; bank collection paybill).")
    )
    till_number = models.CharField(max_length=10, blank=True)
    store_number = models.CharField(
        max_length=10, blank=True, help_text=_("The till's store (head office) number, when it has one.")
    )
    bank_name = models.CharField(max_length=100, blank=True)
    bank_branch = models.CharField(max_length=100, blank=True)
    account_name = models.CharField(max_length=100, blank=True)
    location = models.CharField(max_length=200, blank=True, help_text=_("Where cash is received (cash points)."))
    merchant_msisdn = models.CharField(
        max_length=16,
        blank=True,
        help_text=_("Airtel Money: the merchant's Airtel number (E.164) the organization's Airtel Money account has."),
    )
    is_default = models.BooleanField(
        default=False, help_text=_("The account a subscriber's campaign gets when the wizard skips the payment step.")
    )
    mpesa_connected_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text=_("When the organization connected this paybill or till to M-Pesa's API; until then no STK Push."),
    )
    airtel_connected_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text=_("When the Airtel Money API credentials of this account were set; until then no Airtel push."),
    )
    card_subaccount_code = models.CharField(
        max_length=32,
        blank=True,
        help_text=_("The Paystack subaccount card payments settle to (a bank account); empty: no card payments."),
    )
    card_settlement_bank = models.CharField(
        max_length=32, blank=True, help_text=_("The bank's code at Paystack, given when card payments were set up.")
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["organization_id", "-is_default", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["organization"], condition=Q(is_default=True), name="collection_accounts_one_default"
            ),
            # A paybill or till reports its payments to one organization.
            models.UniqueConstraint(
                fields=["paybill_number"], condition=Q(kind="paybill"), name="collection_accounts_unique_paybill"
            ),
            models.UniqueConstraint(
                fields=["till_number"], condition=Q(kind="till"), name="collection_accounts_unique_till"
            ),
            models.UniqueConstraint(
                fields=["merchant_msisdn"],
                condition=Q(kind="airtel_money"),
                name="collection_accounts_unique_airtel_merchant",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.organization} · {self.label or self.get_kind_display()} ({self.number})"

    @property
    def number(self) -> str:
        """The number people pay to: the paybill, the till, the bank account, or the cash point."""
        return self.paybill_number or self.till_number or self.account_number or self.merchant_msisdn or self.location

    @property
    def mpesa_shortcode(self) -> str:
        """The shortcode M-Pesa reports this account's payments under ('' for other kinds): a paybill's
        number; a till's store number, or the till's own when it has no store."""
        if self.kind == CollectionAccountKind.PAYBILL:
            return self.paybill_number
        if self.kind == CollectionAccountKind.TILL:
            return self.store_number or self.till_number
        return ""

    @property
    def offers_stk_push(self) -> bool:
        """Only a paybill or till the organization connected to M-Pesa's API can send PIN prompts."""
        return self.kind in MPESA_KINDS and self.mpesa_connected_at is not None

    @property
    def offers_airtel_push(self) -> bool:
        """An Airtel Money merchant account whose API credentials are set sends USSD push prompts."""
        return self.kind == CollectionAccountKind.AIRTEL_MONEY and self.airtel_connected_at is not None

    @property
    def takes_cards(self) -> bool:
        """A bank account with a Paystack subaccount: card payments settle to it."""
        return self.kind == CollectionAccountKind.BANK and bool(self.card_subaccount_code)


class AccountKeyword(models.Model):
    """An account number people type when paying the organization's paybill for something that is not
    for Harambee (TITHE, OFFERING, SADAKA): such payments are kept, never listed as unmatched."""

    organization = models.ForeignKey(Organization, on_delete=models.CASCADE, related_name="account_keywords")
    keyword = models.CharField(max_length=20, help_text=_("Upper case, without spaces or separators."))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["organization_id", "keyword"]
        constraints = [
            models.UniqueConstraint(fields=["organization", "keyword"], name="collection_accounts_keyword_once")
        ]

    def __str__(self) -> str:
        return f"{self.organization_id}: {self.keyword}"
