from django.contrib import admin

from simulators.models import SimulatedAirtelApp, SimulatedDarajaApp, SimulatedSms


@admin.register(SimulatedDarajaApp)
class SimulatedDarajaAppAdmin(admin.ModelAdmin[SimulatedDarajaApp]):
    """For the demo: an organization's Daraja app, to connect its paybill or till in the simulator.
    The simulator's credentials are made up, so showing them here leaks nothing."""

    list_display = ["shortcode", "till_number", "organization_name", "consumer_key"]


@admin.register(SimulatedSms)
class SimulatedSmsAdmin(admin.ModelAdmin[SimulatedSms]):
    list_display = ["created_at", "to", "message", "status_code", "message_id"]
    search_fields = ["to", "message", "message_id"]
    readonly_fields = [field.name for field in SimulatedSms._meta.fields]


@admin.register(SimulatedAirtelApp)
class SimulatedAirtelAppAdmin(admin.ModelAdmin[SimulatedAirtelApp]):
    """For the demo: an organization's Airtel Open API app (made-up credentials), with its callback URL."""

    list_display = ["merchant_msisdn", "client_id", "callback_url"]
