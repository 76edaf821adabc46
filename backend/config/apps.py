from django.apps import AppConfig


class ConfigConfig(AppConfig):
    """The composition layer (ARCHITECTURE.md): the API, the URLs, the single-page app's view and
    the demo-data command, which bring every domain app together. An app, so its commands load."""

    name = "config"
    verbose_name = "Harambee"
