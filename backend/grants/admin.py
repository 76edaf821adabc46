from django.contrib import admin
from django.db import models
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone

from grants.models import Grant, GrantApplication, OrganizationProfile


@admin.register(Grant)
class GrantAdmin(admin.ModelAdmin[Grant]):
    list_display = (
        "title",
        "organization",
        "category",
        "amount_usd",
        "location",
        "deadline",
        "is_sample",
        "retired_at",
    )
    list_filter = ("category", "location", "is_sample", ("retired_at", admin.EmptyFieldListFilter))
    search_fields = ("title", "organization", "description", "regions", "focus_areas")
    date_hierarchy = "deadline"
    readonly_fields = ("created_at", "updated_at")
    fieldsets = (
        (None, {"fields": ("title", "organization", "category", "description", "deadline", "is_sample")}),
        ("Where and what", {"fields": ("location", "regions", "focus_areas")}),
        ("Amounts (whole US dollars)", {"fields": ("amount_usd", "amount_min_usd", "amount_max_usd")}),
        ("Links", {"fields": ("website", "application_url")}),
        ("Retirement", {"fields": ("retired_at", "created_at", "updated_at")}),
    )
    actions = ["retire"]
    # An address typed without a scheme ('example.org/apply') is taken as https.
    formfield_overrides = {models.URLField: {"assume_scheme": "https"}}

    @admin.action(description="Retire the selected grants (they leave the search; applications are kept)")
    def retire(self, request: HttpRequest, queryset: QuerySet[Grant]) -> None:
        retired = queryset.filter(retired_at__isnull=True).update(retired_at=timezone.now())
        self.message_user(request, f"{retired} grant(s) retired.")


@admin.register(OrganizationProfile)
class OrganizationProfileAdmin(admin.ModelAdmin[OrganizationProfile]):
    list_display = ("organization_name", "user", "organization_type", "location", "updated_at")
    search_fields = ("organization_name", "user__email")
    list_select_related = ("user",)
    readonly_fields = ("user", "created_at", "updated_at")


@admin.register(GrantApplication)
class GrantApplicationAdmin(admin.ModelAdmin[GrantApplication]):
    list_display = ("grant", "user", "state", "updated_at")
    list_filter = ("state",)
    search_fields = ("grant__title", "user__email")
    list_select_related = ("grant", "user")
    readonly_fields = ("user", "grant", "updated_at")
