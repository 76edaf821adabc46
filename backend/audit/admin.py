from django.contrib import admin
from django.http import HttpRequest

from audit.models import AuditEntry


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin[AuditEntry]):
    """Read only: entries are evidence, so nobody adds, changes or deletes one here."""

    list_display = ("at", "action", "object_repr", "actor")
    list_filter = ("action", "object_type")
    search_fields = ("object_repr", "actor__email")
    list_select_related = ("actor", "object_type")
    date_hierarchy = "at"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: AuditEntry | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: AuditEntry | None = None) -> bool:
        return False
