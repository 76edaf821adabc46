from django.contrib import admin

from organizations.models import Membership, Organization


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
