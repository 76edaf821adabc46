from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.db.models import Count, QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from accounts.models import User
from campaigns import services
from campaigns.models import Campaign, CampaignStatus, Draft, WizardFeedback


def _admin(request: HttpRequest) -> User:
    assert isinstance(request.user, User)
    return request.user


class SuspensionForm(forms.Form):
    reason = forms.CharField(
        label=_("Why (the organizer sees this)"), max_length=500, widget=forms.Textarea(attrs={"rows": 3})
    )


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin[Campaign]):
    list_display = ("title", "status", "type", "category", "goal", "pledged_total", "organizer", "end_date", "likes")
    list_filter = ("status", "type", "category")
    search_fields = ("title", "organizer__email")
    list_select_related = ("organizer",)
    raw_id_fields = ("organizer",)
    # Counters belong to the pledges and donations services; status changes go through the actions.
    readonly_fields = ("status", "pledged_total", "raised_total", "donor_count", "created_at", "updated_at")
    actions = ("activate", "close", "suspend", "lift_suspension")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Campaign]:
        return super().get_queryset(request).annotate(like_total=Count("likes"))

    @admin.display(description=_("Likes"), ordering="like_total")
    def likes(self, campaign: Campaign) -> int:
        return int(getattr(campaign, "like_total", 0))

    def save_model(self, request: HttpRequest, obj: Campaign, form: Any, change: bool) -> None:
        # Values as the form showed them (ids for the organizer), to log what the admin changed.
        before = {field: form.initial.get(field) for field in form.changed_data}
        super().save_model(request, obj, form, change)
        if change:
            services.campaign_audit_admin_edit(campaign=obj, admin=_admin(request), before=before)

    @admin.action(description=_("Activate the selected campaigns"))
    def activate(self, request: HttpRequest, queryset: QuerySet[Campaign]) -> None:
        for campaign in queryset:
            services.campaign_activate(campaign=campaign, activated_by=_admin(request))
        count = len(queryset)
        message = ngettext("%(count)d campaign activated.", "%(count)d campaigns activated.", count)
        self.message_user(request, message % {"count": count}, messages.SUCCESS)

    @admin.action(description=_("Close the selected campaigns"))
    def close(self, request: HttpRequest, queryset: QuerySet[Campaign]) -> None:
        for campaign in queryset:
            services.campaign_close(campaign=campaign, closed_by=_admin(request))
        count = len(queryset)
        message = ngettext("%(count)d campaign closed.", "%(count)d campaigns closed.", count)
        self.message_user(request, message % {"count": count}, messages.SUCCESS)

    @admin.action(description=_("Suspend the selected campaigns"))
    def suspend(self, request: HttpRequest, queryset: QuerySet[Campaign]) -> HttpResponse | None:
        """Asks for the reason first (a page of its own), then suspends every selected campaign."""
        form = SuspensionForm(request.POST if "apply" in request.POST else None)
        if not form.is_valid():
            context = {
                **self.admin_site.each_context(request),
                "title": _("Suspend campaigns"),
                "campaigns": queryset,
                "form": form,
                "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
            }
            return TemplateResponse(request, "admin/campaigns/suspend.html", context)
        for campaign in queryset:
            services.campaign_status_change(
                campaign=campaign,
                status=CampaignStatus.SUSPENDED,
                changed_by=_admin(request),
                reason=form.cleaned_data["reason"],
            )
        count = len(queryset)
        message = ngettext("%(count)d campaign suspended.", "%(count)d campaigns suspended.", count)
        self.message_user(request, message % {"count": count}, messages.SUCCESS)
        return None

    @admin.action(description=_("Lift the suspension of the selected campaigns (they become active)"))
    def lift_suspension(self, request: HttpRequest, queryset: QuerySet[Campaign]) -> None:
        suspended = queryset.filter(status=CampaignStatus.SUSPENDED)
        for campaign in suspended:
            services.campaign_activate(campaign=campaign, activated_by=_admin(request))
        count = len(suspended)
        message = ngettext("%(count)d suspension lifted.", "%(count)d suspensions lifted.", count)
        self.message_user(request, message % {"count": count}, messages.SUCCESS)


@admin.register(WizardFeedback)
class WizardFeedbackAdmin(admin.ModelAdmin[WizardFeedback]):
    """What organizers said in the wizard's 'Thank You for Your Interest!' dialog."""

    list_display = (
        "created_at",
        "user",
        "rating",
        "wants_interview",
        "contact",
        "liked",
        "confusing",
        "features_wanted",
    )
    list_filter = ("rating", "wants_interview", "created_at")
    search_fields = ("user__email", "contact", "liked", "confusing", "features_wanted")
    list_select_related = ("user",)
    readonly_fields = (
        "user",
        "campaign",
        "liked",
        "confusing",
        "features_wanted",
        "rating",
        "wants_interview",
        "contact",
        "created_at",
    )


@admin.register(Draft)
class DraftAdmin(admin.ModelAdmin[Draft]):
    list_display = ("id", "user", "tool_type", "current_step", "is_completed", "updated_at")
    list_filter = ("tool_type", "is_completed")
    search_fields = ("user__email",)
    list_select_related = ("user",)
    readonly_fields = ("user", "tool_type", "step_data", "current_step", "created_at", "updated_at")
