from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OrganizationsConfig(AppConfig):
    name = "organizations"
    verbose_name = _("Organizations")

    def ready(self) -> None:
        from organizations.services import register_team_change_kinds

        register_team_change_kinds()
