from django.contrib import admin
from django.http import HttpRequest

from pledges.models import Donation, Pledge, PledgePayment


class PledgePaymentInline(admin.TabularInline[PledgePayment, Pledge]):
    model = PledgePayment
    fields = ("created_at", "payment", "assigned_by")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Pledge | None = None) -> bool:
        return False


@admin.register(Pledge)
class PledgeAdmin(admin.ModelAdmin[Pledge]):
    """Pledges are written by pledges.services only: amounts, payments and states are read-only here."""

    list_display = ("code", "created_at", "campaign", "name", "amount", "paid_amount", "status", "is_anonymous")
    list_filter = ("status", "is_anonymous", "created_at")
    search_fields = ("code", "name", "email", "phone", "campaign__title")
    list_select_related = ("campaign",)
    date_hierarchy = "created_at"
    readonly_fields = (
        "campaign",
        "code",
        "amount",
        "paid_amount",
        "status",
        "confirmed_at",
        "confirmed_by",
        "created_at",
    )
    fields = ("campaign", "code", "name", "email", "phone", "is_anonymous", *readonly_fields[2:])
    inlines = (PledgePaymentInline,)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Pledge | None = None) -> bool:
        return False


@admin.register(Donation)
class DonationAdmin(admin.ModelAdmin[Donation]):
    list_display = ("created_at", "campaign", "name", "amount", "is_anonymous", "counted_at", "payment")
    list_filter = ("is_anonymous", "created_at")
    search_fields = ("name", "email", "phone", "campaign__title", "payment__reference")
    list_select_related = ("campaign", "payment")
    date_hierarchy = "created_at"
    readonly_fields = ("campaign", "payment", "amount", "counted_at", "created_at")
    fields = ("campaign", "payment", "amount", "name", "email", "phone", "is_anonymous", "counted_at", "created_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Donation | None = None) -> bool:
        return False
