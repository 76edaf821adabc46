from django.apps import AppConfig


class CampaignsConfig(AppConfig):
    name = "campaigns"
    verbose_name = "Campaigns"

    def ready(self) -> None:
        from campaigns import receivers  # noqa: F401 - connects the receivers that refresh campaigns.caching
        from campaigns.services import register_campaign_change_kinds

        register_campaign_change_kinds()
