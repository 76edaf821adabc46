from django.apps import AppConfig


class PledgesConfig(AppConfig):
    name = "pledges"
    verbose_name = "Pledges and donations"

    def ready(self) -> None:
        from pledges import receivers  # noqa: F401 - connects the payment_succeeded and cache-renewing receivers
