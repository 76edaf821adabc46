from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CollectionAccountsConfig(AppConfig):
    name = "collection_accounts"
    verbose_name = _("Collection accounts")

    def ready(self) -> None:
        from collection_accounts.services import register_collection_account_change_kinds

        register_collection_account_change_kinds()
