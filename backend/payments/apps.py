from django.apps import AppConfig


class PaymentsConfig(AppConfig):
    name = "payments"
    verbose_name = "Payments"

    def ready(self) -> None:
        from common.encryption import register_secret_holder
        from payments.airtel import airtel_pending_credentials_reencrypt, register_airtel_change_kinds
        from payments.services import pending_credentials_reencrypt, register_payment_detail_change_kinds

        register_payment_detail_change_kinds()
        register_secret_holder(pending_credentials_reencrypt)
        register_airtel_change_kinds()
        register_secret_holder(airtel_pending_credentials_reencrypt)
