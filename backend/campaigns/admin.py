from typing import Any

from django.contrib import admin, messages
from django.db.models import Count, QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from accounts.models import User
from campaigns import services
from campaigns.models import Campaign, Draft, WizardFeedback


def _admin(request: HttpRequest) -> User:
    assert isinstance(request.user, User)
    return request.user


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin[Campaign]):
    list_display = ("title", "status", "type", "category", "goal", "pledged_total", "organizer", "end_date", "likes")
    list_filter = ("status", "type", "category")
    search_fields = ("title", "organizer__email")
    list_select_related = ("organizer",)
    raw_id_fields = ("organizer",)
    # Counters belong to the pledges and donations services; status changes go through the actions.
    readonly_fields = ("status", "pledged_total", "raised_total", "donor_count", "created_at", "updated_at")
    actions = ("activate", "close")

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
