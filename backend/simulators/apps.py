from django.apps import AppConfig


class SimulatorsConfig(AppConfig):
    name = "simulators"
    verbose_name = "Payment simulators (local only)"
