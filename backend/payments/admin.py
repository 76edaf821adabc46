from django.contrib import admin
from django.http import HttpRequest

from payments.models import MpesaConnection, MpesaStandingOrder, Payment, PaymentEvent, Subscription


class PaymentEventInline(admin.TabularInline[PaymentEvent, Payment]):
    model = PaymentEvent
    fields = ("received_at", "kind", "outcome", "remote_addr", "body")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Payment | None = None) -> bool:
        return False


@admin.register(Payment)
class PaymentAdmin(admin.ModelAdmin[Payment]):
    """The ledger is written by payments.services only: money fields are read-only here.
    Staff may annotate a payment and clear a flag once they have dealt with it."""

    list_display = (
        "reference",
        "created_at",
        "purpose",
        "provider",
        "amount",
        "status",
        "flagged",
        "receipt_number",
        "payer_phone",
        "payer_email",
        "campaign",
    )
    list_filter = ("provider", "purpose", "status", "flagged", "created_at")
    search_fields = ("reference", "receipt_number", "mpesa_receipt", "payer_phone", "payer_email", "account_reference")
    list_select_related = ("campaign",)
    date_hierarchy = "created_at"
    fields = (
        ("reference", "receipt_number"),
        ("purpose", "provider", "status"),
        ("amount", "created_at", "settled_at"),
        ("user", "campaign", "recorded_by"),
        "collection_account",
        ("payer_phone", "payer_email"),
        ("checkout_request_id", "merchant_request_id"),
        ("mpesa_receipt", "provider_reference", "account_reference"),
        ("result_code", "result_desc"),
        "checkout_url",
        "idempotency_key",
        ("flagged", "flag_reason"),
        "note",
    )
    readonly_fields = tuple(
        name
        for group in fields
        for name in (group if isinstance(group, tuple) else (group,))
        if name not in ("flagged", "flag_reason", "note")
    )
    inlines = (PaymentEventInline,)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Payment | None = None) -> bool:
        return False


@admin.register(PaymentEvent)
class PaymentEventAdmin(admin.ModelAdmin[PaymentEvent]):
    list_display = ("received_at", "provider", "kind", "outcome", "payment", "remote_addr")
    list_filter = ("provider", "kind", "outcome", "received_at")
    search_fields = ("payment__reference", "remote_addr")
    list_select_related = ("payment",)
    readonly_fields = ("provider", "kind", "outcome", "payment", "remote_addr", "received_at", "body")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: PaymentEvent | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: PaymentEvent | None = None) -> bool:
        return False


@admin.register(Subscription)
class SubscriptionAdmin(admin.ModelAdmin[Subscription]):
    list_display = ("user", "starts_at", "ends_at", "payment")
    search_fields = ("user__email", "payment__reference")
    list_select_related = ("user", "payment")
    readonly_fields = ("user", "starts_at", "ends_at", "payment")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(MpesaConnection)
class MpesaConnectionAdmin(admin.ModelAdmin[MpesaConnection]):
    """Which accounts are connected and when they were registered, tested and pulled. The consumer
    key, secret and passkey are not here at all: nobody reads them back, and only the account's
    owners and treasurers replace them (in the app)."""

    list_display = (
        "account",
        "c2b_registered_at",
        "pull_registered_at",
        "last_tested_at",
        "last_pulled_at",
        "ratiba_enabled",
    )
    list_select_related = ("account__organization",)
    search_fields = ("account__organization__name", "account__paybill_number", "account__till_number")
    fields = (
        "account",
        "nominated_number",
        ("c2b_registered_at", "pull_registered_at"),
        ("last_tested_at", "last_pulled_at"),
        "ratiba_enabled",
        ("created_at", "updated_at"),
    )
    readonly_fields = (
        "account",
        "nominated_number",
        "c2b_registered_at",
        "pull_registered_at",
        "last_tested_at",
        "last_pulled_at",
        "ratiba_enabled",
        "created_at",
        "updated_at",
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(MpesaStandingOrder)
class MpesaStandingOrderAdmin(admin.ModelAdmin[MpesaStandingOrder]):
    """The M-Pesa Ratiba standing orders pledgers were asked for, as their callbacks left them (read-only:
    only payments.services writes them; the payer stops one on their phone)."""

    list_display = ("reference", "created_at", "name", "amount", "frequency", "status", "account")
    list_filter = ("status", "frequency")
    search_fields = ("reference", "name", "account_reference", "phone")
    list_select_related = ("account__organization",)
    readonly_fields = [field.name for field in MpesaStandingOrder._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: MpesaStandingOrder | None = None) -> bool:
        return False
