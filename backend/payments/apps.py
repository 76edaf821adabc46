from django.apps import AppConfig


class PaymentsConfig(AppConfig):
    name = "payments"
    verbose_name = "Payments"

    def ready(self) -> None:
        from payments.services import register_mpesa_change_kinds

        register_mpesa_change_kinds()
