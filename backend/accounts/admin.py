from typing import Any

from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.core.exceptions import ValidationError

from accounts import sign_in_limits
from accounts.models import User
from common.errors import RateLimitedError


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    ordering = ("email",)
    list_display = ("email", "first_name", "last_name", "phone", "is_staff", "created_at")
    list_filter = ("is_staff", "is_superuser", "is_active")
    search_fields = ("email", "first_name", "last_name", "phone")
    readonly_fields = ("created_at", "updated_at", "last_login")
    fieldsets = (
        (None, {"fields": ("email", "password")}),
        ("Personal info", {"fields": ("first_name", "last_name", "phone", "id_number", "avatar_url")}),
        ("Permissions", {"fields": ("is_active", "is_staff", "is_superuser", "groups", "user_permissions")}),
        ("Dates", {"fields": ("last_login", "created_at", "updated_at")}),
    )
    add_fieldsets = ((None, {"classes": ("wide",), "fields": ("email", "password1", "password2")}),)


class LimitedAdminAuthenticationForm(AdminAuthenticationForm):
    """The admin's sign-in form under the API's limits on failures (``accounts/sign_in_limits.py``):
    past them the form answers 'too many attempts' whatever the password."""

    def clean(self) -> dict[str, Any]:
        username, password = self.cleaned_data.get("username"), self.cleaned_data.get("password")
        if not (username and password and self.request):
            return super().clean()
        counters = sign_in_limits.sign_in_counters(request=self.request, email=username)
        try:
            counted = sign_in_limits.sign_in_attempt_count(counters=counters)
        except RateLimitedError as refusal:
            raise ValidationError(refusal.message, code="rate_limited") from None
        try:
            cleaned = super().clean()
        except ValidationError:
            if self.user_cache is None:  # a wrong password, not a member who is not staff
                sign_in_limits.sign_in_failure_record(counters=counters, counted=counted)
            else:
                sign_in_limits.sign_in_success_record(counters=counters, counted=counted)
            raise
        sign_in_limits.sign_in_success_record(counters=counters, counted=counted)
        return cleaned


admin.site.login_form = LimitedAdminAuthenticationForm
