from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts"


class AdminConfig(admin_apps.AdminConfig):
    """Django's admin, on the site of accounts/admin_site.py (installed in its place in settings)."""

    default = False  # accounts' own app is AccountsConfig
    default_site = "accounts.admin_site.AdminSite"
