from django.contrib import admin
from django.http import HttpRequest

from sms_keywords.models import InboundSms


@admin.register(InboundSms)
class InboundSmsAdmin(admin.ModelAdmin):
    """Read-only: the record of what reached the shortcode and what was done about it."""

    list_display = ("received_at", "sender", "text", "outcome", "deliveries")
    list_filter = ("outcome",)
    search_fields = ("message_id", "sender")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: InboundSms | None = None) -> bool:
        return False
