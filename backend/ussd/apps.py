from django.apps import AppConfig


class UssdConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ussd"
    verbose_name = "USSD"
