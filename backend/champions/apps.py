from django.apps import AppConfig


class ChampionsConfig(AppConfig):
    name = "champions"
    verbose_name = "Champions, teams and harambee cards"

    def ready(self) -> None:
        from champions import receivers  # noqa: F401 - connects the cache-renewing receivers
        from champions.services import champion_payments_claim
        from pledges.account_references import claimer_register

        # A paybill payment whose account number is a champion's code credits their campaign.
        claimer_register(champion_payments_claim)
