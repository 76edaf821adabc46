from django.apps import AppConfig


class SpendingConfig(AppConfig):
    name = "spending"
    verbose_name = "Spending (how the money was used)"
