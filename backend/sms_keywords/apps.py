from django.apps import AppConfig


class SmsKeywordsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "sms_keywords"
    verbose_name = "SMS keywords"
