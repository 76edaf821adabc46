from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from common.errors import ServiceError
from organizations.models import ChangeRequest, Membership, Organization
from organizations.services import change_request_approve_as_admin


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    raw_id_fields = ("user",)


@admin.register(Organization)
class OrganizationAdmin(admin.ModelAdmin):
    list_display = ("name", "kind", "county", "town", "created_at")
    list_filter = ("kind",)
    search_fields = ("name", "registration_number", "memberships__user__email")
    inlines = [MembershipInline]


@admin.register(ChangeRequest)
class ChangeRequestAdmin(admin.ModelAdmin):
    """The two-person rule's requests, read-only; an admin approves one that waits for a third person
    (its only other owner or treasurer is the one it is about)."""

    list_display = ("summary", "organization", "status", "requested_by", "created_at", "expires_at")
    list_filter = ("status", "kind")
    search_fields = ("organization__name", "summary")
    readonly_fields = [field.name for field in ChangeRequest._meta.fields]
    actions = ["approve"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: ChangeRequest | None = None) -> bool:
        return False

    @admin.action(description="Approve the selected requests", permissions=["change"])
    def approve(self, request: HttpRequest, queryset: QuerySet[ChangeRequest]) -> None:
        for change_request in queryset:
            try:
                change_request_approve_as_admin(admin=request.user, change_request_id=change_request.pk)  # type: ignore[arg-type]
            except ServiceError as error:
                self.message_user(request, f"{change_request.summary}: {error.message}", messages.ERROR)
            else:
                self.message_user(request, f"{change_request.summary}: applied.", messages.SUCCESS)
