"""The admin site (``AdminConfig`` in accounts/apps.py): its sign-in under the API's limits on failures
(accounts/sign_in_limits.py), and the device it succeeds on known from then on, as the API's sign-in does."""

from typing import Any

from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse

from accounts import sign_in_limits
from accounts.models import User
from common.errors import RateLimitedError


class LimitedAdminAuthenticationForm(AdminAuthenticationForm):
    """The admin's sign-in form under the API's limits on failures: past them the form answers
    'too many attempts' whatever the password."""

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


class AdminSite(admin.AdminSite):
    login_form = LimitedAdminAuthenticationForm

    def login(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        response = super().login(request, extra_context)
        # A sign-in posted and redirected onwards is one that succeeded (a refused one shows the form again).
        if request.method == "POST" and response.status_code == 302 and isinstance(request.user, User):
            sign_in_limits.known_device_cookie_set(request=request, response=response, user=request.user)
        return response
