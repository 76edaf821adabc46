from django.contrib import admin
from django.db import models

from grants.models import Grant, GrantApplication, OrganizationProfile


@admin.register(Grant)
class GrantAdmin(admin.ModelAdmin[Grant]):
    list_display = ("title", "organization", "category", "amount_usd", "location", "deadline")
    list_filter = ("category", "location")
    search_fields = ("title", "organization", "description")
    date_hierarchy = "deadline"
    readonly_fields = ("created_at", "updated_at")
    # An address typed without a scheme ('example.org/apply') is taken as https.
    formfield_overrides = {models.URLField: {"assume_scheme": "https"}}


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
