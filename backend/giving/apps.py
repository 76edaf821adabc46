from django.apps import AppConfig


class GivingConfig(AppConfig):
    name = "giving"
    verbose_name = "A giver's own giving and statements"
