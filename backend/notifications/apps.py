from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = "Notifications and reminders"

    def ready(self) -> None:
        from notifications import receivers  # noqa: F401 - connects the account, pledge and payment signal receivers
