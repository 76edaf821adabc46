"""The payments ledger: one row per intent or money movement, in whole KES.

Only ``payments.services`` changes amounts and statuses. The unique provider identifiers
(``checkout_request_id``, ``provider_reference``, ``receipt_number``, and an M-Pesa receipt within
the organization it was paid to) make every credit idempotent in the database itself, whatever order
callbacks arrive in (docs/architecture/payment-identity.md).
"""

import secrets
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Case, Q, Value, When
from django.db.models.functions import Cast, Concat, LPad
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from collection_accounts.models import CollectionAccount, CollectionAccountKind
from common.checks import DARAJA_REFUSED_WORDS
from common.encryption import EncryptedTextField
from payments.providers import daraja
from payments.providers.daraja import DarajaCredentials

# No 0/O or 1/I: a reference may be read out or typed as an M-Pesa account number.
REFERENCE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
REFERENCE_LENGTH = 12  # Daraja's AccountReference holds at most 12 characters; 60 random bits.


def new_reference() -> str:
    return "".join(secrets.choice(REFERENCE_ALPHABET) for _ in range(REFERENCE_LENGTH))


class PaymentQuerySet(models.QuerySet["Payment"]):
    def holding_receipts(self, *, organization_id: int | None, receipts: list[str]) -> "PaymentQuerySet":
        """The live (unreversed) payments these M-Pesa receipts identify in the organization they were paid
        to (None: the platform's paybill)."""
        where = Q(organization__isnull=True) if organization_id is None else Q(organization_id=organization_id)
        return self.filter(where, mpesa_receipt__in=receipts, reversed_at__isnull=True)


class Payment(models.Model):
    class Provider(models.TextChoices):
        MPESA_STK = "mpesa_stk", _("M-Pesa (STK Push)")
        MPESA_C2B = "mpesa_c2b", _("M-Pesa (paybill)")
        CARD = "card", _("Card")
        CASH = "cash", _("Cash")
        BANK = "bank", _("Bank transfer")
        # Paid to the organization's own M-Pesa number (not our paybill) and entered by a treasurer
        # with its M-Pesa receipt code, which ``mpesa_receipt`` keeps unique (in that organization) against
        # callbacks.
        MPESA_MANUAL = "mpesa_manual", _("M-Pesa to the organization's number")
        # Airtel Money USSD push to the organization's Airtel Money merchant account (``payments.airtel``):
        # the transaction id we send is the payment's ``reference``; Airtel's own id (airtel_money_id)
        # is kept in ``mpesa_receipt``, which keeps it unique in that organization like an M-Pesa receipt.
        AIRTEL = "airtel", _("Airtel Money")

    class Purpose(models.TextChoices):
        DONATION = "donation", _("Donation")
        PLEDGE_PAYMENT = "pledge_payment", _("Pledge payment")
        CAMPAIGN_ACTIVATION = "campaign_activation", _("Campaign activation")
        SUBSCRIPTION = "subscription", _("Subscription")

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        SUCCEEDED = "succeeded", _("Succeeded")
        FAILED = "failed", _("Failed")
        CANCELLED = "cancelled", _("Cancelled")
        EXPIRED = "expired", _("Expired")

    reference = models.CharField(max_length=REFERENCE_LENGTH, unique=True, default=new_reference, editable=False)
    provider = models.CharField(max_length=16, choices=Provider.choices)
    purpose = models.CharField(max_length=24, choices=Purpose.choices)
    amount = models.PositiveIntegerField(help_text="Whole KES.")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    payer_phone = models.CharField(max_length=16, blank=True, help_text="E.164, e.g. +254712345678")
    payer_email = models.EmailField(blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="payments"
    )
    campaign = models.ForeignKey(
        "campaigns.Campaign", null=True, blank=True, on_delete=models.PROTECT, related_name="payments"
    )
    collection_account = models.ForeignKey(
        "collection_accounts.CollectionAccount",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="payments",
        help_text="The organization's account the money was paid into (a PIN prompt to its paybill or till, a "
        "paybill payment to it); empty for the platform's own fees, paid to Harambee's paybill.",
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The organizer who recorded a cash or bank payment.",
    )
    note = models.TextField(blank=True)
    idempotency_key = models.CharField(max_length=64, blank=True)
    # M-Pesa STK Push.
    checkout_request_id = models.CharField(max_length=64, unique=True, null=True, blank=True)
    merchant_request_id = models.CharField(max_length=64, blank=True)
    # Card: Paystack's transaction id; bank: the transfer's reference.
    provider_reference = models.CharField(max_length=100, unique=True, null=True, blank=True)
    received_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the money reached the organization, for an entry recorded by hand (it counts on "
        "that day); empty for payments the providers told us about.",
    )
    checkout_url = models.URLField(max_length=500, blank=True)
    return_path = models.CharField(max_length=200, blank=True)
    # M-Pesa's transaction id (STK MpesaReceiptNumber, C2B TransID): one credit per receipt in the
    # organization it was paid to (``payments_payment_receipt_per_organization``), never across them.
    mpesa_receipt = models.CharField(max_length=32, null=True, blank=True)  # noqa: DJ001 NULL: no receipt, never equal
    organization = models.ForeignKey(
        "organizations.Organization",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="The organization the money was paid to (its account's, else its campaign's); empty for "
        "the platform's own fees. With the M-Pesa receipt, what identifies an M-Pesa payment.",
    )
    account_reference = models.CharField(max_length=64, blank=True, help_text="The account number a C2B payer typed.")
    result_code = models.CharField(max_length=32, blank=True)
    result_desc = models.CharField(max_length=255, blank=True)

    class SetAside(models.TextChoices):
        KEYWORD = "keyword", _("Not for Harambee (an account keyword such as TITHE)")
        NOT_FOR_A_CAMPAIGN = "not_for_a_campaign", _("Not for a campaign")

    set_aside = models.CharField(
        max_length=24,
        choices=SetAside.choices,
        blank=True,
        help_text="Money paid into an organization's account that is not for any campaign: kept, never "
        "listed among the unmatched payments.",
    )
    notify_payer = models.BooleanField(
        default=True,
        help_text="Whether the payer is sent a receipt; off for money found weeks later on a statement, "
        "unless the treasurer asked for receipts.",
    )
    reversed_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When its reversing entry was made (``PaymentReversal``): from then on its M-Pesa receipt "
        "identifies no payment, and may be recorded again.",
    )
    flagged = models.BooleanField(default=False)
    flag_reason = models.CharField(max_length=255, blank=True)
    receipt_number = models.CharField(max_length=32, unique=True, null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    settled_at = models.DateTimeField(null=True, blank=True)
    # Kept beside the pledge link and ``Donation.counted_at`` it mirrors so that a campaign's money
    # by day and method is one index-only read (analytics at a million payments: bench/).
    counted_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When it counted towards its campaign's raised total (credited to a pledge, or its "
        "donation counted); empty for fees and for payments not matched to a pledge.",
    )

    objects = PaymentQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gte=1), name="payments_payment_amount_gte_1"),
            # A double-tapped button sends the same key twice: one intent per user, purpose and key.
            models.UniqueConstraint(
                fields=["user", "purpose", "idempotency_key"],
                condition=Q(user__isnull=False) & ~Q(idempotency_key=""),
                name="payments_payment_idempotency_user",
            ),
            models.UniqueConstraint(
                fields=["purpose", "idempotency_key"],
                condition=Q(user__isnull=True) & ~Q(idempotency_key=""),
                name="payments_payment_idempotency_anonymous",
            ),
            # One live payment per receipt where the money landed: the same receipt in two organizations
            # is two payments (one organization's typo never blocks another's genuine payment), and a
            # reversed payment's receipt is free again.
            models.UniqueConstraint(
                fields=["organization", "mpesa_receipt"],
                condition=Q(mpesa_receipt__isnull=False, organization__isnull=False, reversed_at__isnull=True),
                name="payments_payment_receipt_per_organization",
            ),
            models.UniqueConstraint(
                fields=["mpesa_receipt"],
                condition=Q(mpesa_receipt__isnull=False, organization__isnull=True, reversed_at__isnull=True),
                name="payments_payment_receipt_platform",
            ),
        ]
        indexes = [
            models.Index(fields=["status", "provider", "created_at"], name="payments_pending_idx"),
            models.Index(fields=["mpesa_receipt"], name="payments_mpesa_receipt_idx"),
            # INCLUDE is PostgreSQL's; elsewhere a plain partial index.
            models.Index(
                fields=["campaign", "counted_at"],
                include=["provider", "purpose", "amount"],
                condition=Q(counted_at__isnull=False),
                name="payments_counted_idx",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.reference} {self.get_purpose_display()} KES {self.amount} ({self.status})"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self._state.adding and self.organization_id is None:
            self.organization_id = self.receiving_organization_id()
        super().save(*args, **kwargs)

    def receiving_organization_id(self) -> int | None:
        """Whose money this is: the organization of the account it was paid into, else of the campaign it
        gives to; None for the platform's fees (paid to Harambee's paybill, even for a campaign)."""
        if self.collection_account is not None:
            return self.collection_account.organization_id
        if self.campaign is not None and self.purpose in (self.Purpose.DONATION, self.Purpose.PLEDGE_PAYMENT):
            return self.campaign.organization_id
        return None

    @property
    def is_pending(self) -> bool:
        return self.status == self.Status.PENDING

    @property
    def is_manual(self) -> bool:
        """Entered by a person (cash, bank, M-Pesa to the organization's number), not by a provider."""
        return self.provider in MANUAL_PROVIDERS

    @property
    def is_reversed(self) -> bool:
        return hasattr(self, "reversal")

    @property
    def contact_email(self) -> str:
        """Where the receipt goes: the e-mail given with the payment, else the payer's account."""
        return self.payer_email or (self.user.email if self.user else "")

    def issue_receipt(self, *, at: datetime) -> None:
        """Mark succeeded with a receipt number; unique because it carries the primary key."""
        self.status = self.Status.SUCCEEDED
        self.settled_at = at
        self.receipt_number = f"{self.receipt_number_prefix(at)}{self.pk:06d}"

    @staticmethod
    def receipt_number_prefix(at: datetime) -> str:
        return f"HRB-{timezone.localtime(at):%y%m%d}-"

    @classmethod
    def receipt_number_expression(cls, *, at: datetime) -> Concat:
        """The receipt number ``issue_receipt`` gives, made by the database from each row's key (padded to
        six digits, never cut), so that many payments get theirs in one UPDATE."""
        digits = Cast("pk", models.CharField())
        return Concat(
            Value(cls.receipt_number_prefix(at)),
            Case(When(pk__lt=1_000_000, then=LPad(digits, 6, Value("0"))), default=digits),
        )


MANUAL_PROVIDERS = (Payment.Provider.CASH, Payment.Provider.BANK, Payment.Provider.MPESA_MANUAL)


class PaymentReversal(models.Model):
    """The reversing entry of a payment recorded by mistake: the payment row itself is never edited
    or deleted; from this entry on it counts towards nothing (``counted_at`` is emptied)."""

    payment = models.OneToOneField(Payment, on_delete=models.PROTECT, related_name="reversal")
    reason = models.TextField()
    reversed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"Reversal of {self.payment_id}"


class PaymentEvent(models.Model):
    """Every body a provider sent us (or answered), kept as received, with what we did with it."""

    class Kind(models.TextChoices):
        STK_CALLBACK = "stk_callback", _("STK callback")
        STK_QUERY = "stk_query", _("STK query answer")
        C2B_VALIDATION = "c2b_validation", _("C2B validation")
        C2B_CONFIRMATION = "c2b_confirmation", _("C2B confirmation")
        PULL = "pull", _("Pull Transactions (a confirmation that never came)")
        STATEMENT_ROW = "statement_row", _("A row of an imported M-Pesa statement")
        CARD_WEBHOOK = "card_webhook", _("Card webhook")
        CARD_VERIFY = "card_verify", _("Card verification answer")
        STANDING_ORDER_CALLBACK = "standing_order", _("Standing order (Ratiba) callback")
        AIRTEL_CALLBACK = "airtel_callback", _("Airtel Money callback")
        AIRTEL_ENQUIRY = "airtel_enquiry", _("Airtel Money transaction enquiry answer")
        AIRTEL_STATEMENT_ROW = "airtel_statement_row", _("A row of an imported Airtel Money statement")

    class Outcome(models.TextChoices):
        CREDITED = "credited", _("Credited")
        DUPLICATE = "duplicate", _("Duplicate")
        IGNORED_UNKNOWN = "ignored_unknown", _("Ignored: unknown")
        REJECTED_MALFORMED = "rejected_malformed", _("Rejected: malformed")
        REJECTED_SIGNATURE = "rejected_signature", _("Rejected: bad signature")
        FLAGGED_MISMATCH = "flagged_mismatch", _("Flagged: mismatch")
        FAILED = "failed", _("Payment failed")
        PENDING = "pending", _("Still pending")
        ACCEPTED = "accepted", _("Validation accepted")
        REJECTED = "rejected", _("Validation rejected")

    provider = models.CharField(max_length=16, choices=Payment.Provider.choices)
    kind = models.CharField(max_length=24, choices=Kind.choices)
    body = models.JSONField(help_text="As received; non-JSON bodies are kept as {'raw': text}.")
    remote_addr = models.GenericIPAddressField(null=True, blank=True)
    payment = models.ForeignKey(Payment, null=True, blank=True, on_delete=models.PROTECT, related_name="events")
    outcome = models.CharField(max_length=24, choices=Outcome.choices)
    received_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["-received_at", "-id"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.get_outcome_display()}"


class Subscription(models.Model):
    """A paid period; the user is a subscriber (``has_paid``) while one covers the present."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="subscriptions")
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    payment = models.OneToOneField(Payment, on_delete=models.PROTECT, related_name="subscription")

    class Meta:
        ordering = ["-ends_at"]
        indexes = [models.Index(fields=["user", "ends_at"], name="payments_subscription_user_idx")]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.starts_at:%Y-%m-%d} to {self.ends_at:%Y-%m-%d}"


def _callback_token() -> str:
    """Unguessable, and free of the words Daraja refuses in callback URLs."""
    while True:
        token = secrets.token_urlsafe(32)
        if not any(word in token.lower() for word in DARAJA_REFUSED_WORDS):
            return token


class MpesaConnection(models.Model):
    """An organization's own Daraja app, connected to one of its paybill or till collection accounts.

    The consumer key, consumer secret and passkey are encrypted at rest (``EncryptedTextField``) and
    never shown again: owners and treasurers can only replace them. Daraja posts this account's
    callbacks to URLs carrying ``callback_token``, which is how they are told from the platform's
    and from other organizations'.
    """

    account = models.OneToOneField(CollectionAccount, on_delete=models.CASCADE, related_name="mpesa_connection")
    consumer_key = EncryptedTextField()
    consumer_secret = EncryptedTextField()
    passkey = EncryptedTextField(blank=True, help_text="Lipa Na M-Pesa passkey, for STK Push.")
    nominated_number = models.CharField(
        max_length=16, blank=True, help_text="The organization's Safaricom number Pull Transactions is registered with."
    )
    callback_token = models.CharField(max_length=64, unique=True, default=_callback_token, editable=False)
    c2b_registered_at = models.DateTimeField(null=True, blank=True)
    pull_registered_at = models.DateTimeField(null=True, blank=True)
    last_tested_at = models.DateTimeField(null=True, blank=True)
    last_pulled_at = models.DateTimeField(null=True, blank=True)
    ratiba_enabled = models.BooleanField(
        default=False,
        help_text="Safaricom enabled M-Pesa Ratiba (standing orders) for this paybill, after a commercial "
        "agreement; only then are pledgers offered to pay their plan automatically.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"M-Pesa connection of collection account {self.account_id}"

    @property
    def offers_standing_orders(self) -> bool:
        """Ratiba for a connected paybill with it enabled: a till payment carries no account number,
        so its executions could not say which pledge they pay."""
        account = self.account
        return self.ratiba_enabled and account.kind == CollectionAccountKind.PAYBILL and account.offers_stk_push

    def credentials(self) -> DarajaCredentials:
        account = self.account
        till = account.kind == CollectionAccountKind.TILL
        return DarajaCredentials(
            consumer_key=self.consumer_key,
            consumer_secret=self.consumer_secret,
            shortcode=account.mpesa_shortcode,
            passkey=self.passkey,
            kind=daraja.TILL if till else daraja.PAYBILL,
            till_number=account.till_number if till else "",
            nominated_number=self.nominated_number.lstrip("+"),
        )

    def pays_to(self, shortcode: str) -> bool:
        """Whether a notification's BusinessShortCode is this account's (a till's own number or its store's)."""
        account = self.account
        return bool(shortcode) and shortcode in {account.paybill_number, account.till_number, account.store_number}


class AirtelConnection(models.Model):
    """The Airtel Africa Open API app of an organization's Airtel Money merchant account.

    The client id and secret (OAuth2 client credentials) and the callback key (the private key Airtel
    signs authenticated callbacks with, when the app has callback authentication on) are encrypted at
    rest and never shown again. Airtel posts the app's collection callbacks to the one URL set in its
    portal: ours carries ``callback_token``, which tells whose callback it is.
    """

    account = models.OneToOneField(CollectionAccount, on_delete=models.CASCADE, related_name="airtel_connection")
    client_id = EncryptedTextField()
    client_secret = EncryptedTextField()
    callback_key = EncryptedTextField(
        blank=True, help_text="The key of authenticated callbacks (their 'hash'); empty: callbacks are not signed."
    )
    callback_token = models.CharField(max_length=64, unique=True, default=_callback_token, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"Airtel Money connection of collection account {self.account_id}"


class StandingOrderStatus(models.TextChoices):
    PENDING = "pending", _("Waiting for approval")
    ACTIVE = "active", _("Active")
    FAILED = "failed", _("Not created")


class MpesaStandingOrder(models.Model):
    """An M-Pesa Ratiba standing order we asked a payer for: ``amount`` every week or month from
    ``start_on`` to ``end_on`` to a connected paybill, with ``account_reference`` (a pledge code).

    ``pending`` until the payer answers the approval prompt; the callback makes it ``active`` or
    ``failed``. Daraja's API creates orders only: the payer stops one on their phone, and we are
    never told, so ``active`` means "approved", not "still running". Each execution is an ordinary
    paybill payment that reaches the C2B confirmation like any other.
    """

    Status = StandingOrderStatus

    class Frequency(models.TextChoices):
        WEEKLY = "weekly", _("Weekly")
        MONTHLY = "monthly", _("Monthly")

    reference = models.CharField(max_length=REFERENCE_LENGTH, unique=True, default=new_reference, editable=False)
    account = models.ForeignKey(CollectionAccount, on_delete=models.PROTECT, related_name="standing_orders")
    name = models.CharField(max_length=64, help_text="Unique among the payer's standing orders; shown on their phone.")
    phone = models.CharField(max_length=16, help_text="E.164: the payer who approves and pays.")
    amount = models.PositiveIntegerField(help_text="Whole KES each execution.")
    frequency = models.CharField(max_length=8, choices=Frequency.choices)
    start_on = models.DateField()
    end_on = models.DateField()
    account_reference = models.CharField(max_length=12)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    result_code = models.CharField(max_length=32, blank=True)
    result_desc = models.CharField(max_length=255, blank=True)
    transaction_id = models.CharField(max_length=32, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    settled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gte=1), name="payments_standing_order_amount_gte_1"),
        ]

    def __str__(self) -> str:
        return f"{self.name}: KES {self.amount} {self.frequency} ({self.status})"

    def failure_message(self) -> str:
        """Why a failed order was not created, in words for its payer ('' unless failed)."""
        if self.status != self.Status.FAILED:
            return ""
        return str(STANDING_ORDER_FAILURES.get(self.result_code, STANDING_ORDER_NOT_CREATED))


# Ratiba's result codes (those of the approval prompt, and a name the payer already uses).
STANDING_ORDER_NOT_CREATED = _("M-Pesa did not create the standing order.")
STANDING_ORDER_FAILURES = {
    "1032": _("The standing order was declined on the phone."),
    "1037": _("The phone could not be reached, or the prompt was not answered in time."),
    "2001": _("The M-Pesa PIN was wrong."),
    "1001": _("The phone was busy with another M-Pesa request. Please try again."),
}
