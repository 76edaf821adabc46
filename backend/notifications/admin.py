from django.contrib import admin

from notifications.models import CampaignReminderSettings, NotificationLog, PledgeOptOut, Reminder


@admin.register(NotificationLog)
class NotificationLogAdmin(admin.ModelAdmin[NotificationLog]):
    list_display = ["created_at", "channel", "template", "recipient", "status", "attempts", "sent_at"]
    list_filter = ["channel", "status", "template"]
    search_fields = ["recipient", "provider_message_id", "pledge__code"]
    raw_id_fields = ["pledge", "payment"]
    readonly_fields = [field.name for field in NotificationLog._meta.fields]


@admin.register(Reminder)
class ReminderAdmin(admin.ModelAdmin[Reminder]):
    list_display = ["created_at", "pledge", "offset", "status", "sent_at"]
    list_filter = ["status", "offset"]
    raw_id_fields = ["pledge"]


@admin.register(CampaignReminderSettings)
class CampaignReminderSettingsAdmin(admin.ModelAdmin[CampaignReminderSettings]):
    list_display = ["campaign", "enabled", "offsets"]
    raw_id_fields = ["campaign"]


@admin.register(PledgeOptOut)
class PledgeOptOutAdmin(admin.ModelAdmin[PledgeOptOut]):
    list_display = ["pledge", "created_at"]
    raw_id_fields = ["pledge"]
