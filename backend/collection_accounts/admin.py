from django.contrib import admin

from collection_accounts.models import CollectionAccount


@admin.register(CollectionAccount)
class CollectionAccountAdmin(admin.ModelAdmin):
    list_display = (
        "organization",
        "kind",
        "label",
        "paybill_number",
        "till_number",
        "is_default",
        "mpesa_connected_at",
    )
    list_filter = ("kind", "is_default")
    search_fields = ("organization__name", "label", "paybill_number", "till_number", "account_number")
    raw_id_fields = ("organization",)
    readonly_fields = ("created_at", "updated_at")
