from django.contrib import admin

from feedback.models import Feedback


@admin.register(Feedback)
class FeedbackAdmin(admin.ModelAdmin[Feedback]):
    list_display = ("created_at", "message", "contact", "user", "page")
    list_filter = ("created_at",)
    search_fields = ("message", "contact", "user__email")
    readonly_fields = ("message", "contact", "user", "page", "created_at")
    list_select_related = ("user",)
