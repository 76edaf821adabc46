from django.contrib import admin

from simulators.models import SimulatedSms


@admin.register(SimulatedSms)
class SimulatedSmsAdmin(admin.ModelAdmin[SimulatedSms]):
    list_display = ["created_at", "to", "message", "status_code", "message_id"]
    search_fields = ["to", "message", "message_id"]
    readonly_fields = [field.name for field in SimulatedSms._meta.fields]
