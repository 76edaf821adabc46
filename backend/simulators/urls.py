"""Mounted under /simulators/ only while PAYMENT_SIMULATORS_ENABLED (never in production)."""

from django.urls import path

from simulators import airtel, daraja, paystack, ratiba, sms, sms_inbound, statements, ussd

app_name = "simulators"

urlpatterns = [
    # Safaricom Daraja, as under https://sandbox.safaricom.co.ke
    path("daraja/oauth/v1/generate", daraja.oauth_generate, name="daraja-oauth"),
    path("daraja/mpesa/stkpush/v1/processrequest", daraja.stk_push, name="daraja-stk-push"),
    path("daraja/mpesa/stkpushquery/v1/query", daraja.stk_query, name="daraja-stk-query"),
    path("daraja/mpesa/c2b/v1/registerurl", daraja.c2b_register_url, name="daraja-c2b-register"),
    path("daraja/mpesa/c2b/v2/registerurl", daraja.c2b_register_url, name="daraja-c2b-register-v2"),
    path("daraja/mpesa/c2b/v1/simulate", daraja.c2b_simulate_daraja, name="daraja-c2b-simulate-v1"),
    path("daraja/mpesa/c2b/v2/simulate", daraja.c2b_simulate_daraja, name="daraja-c2b-simulate-v2"),
    path("daraja/pulltransactions/v1/register", daraja.pull_register, name="daraja-pull-register"),
    path("daraja/pulltransactions/v1/query", daraja.pull_query, name="daraja-pull-query"),
    path("daraja/standingorder/v1/createStandingOrderExternal", ratiba.create, name="daraja-ratiba-create"),
    # Helpers of the simulator itself.
    path("daraja/c2b/simulate", daraja.c2b_simulate, name="daraja-c2b-simulate"),
    path("daraja/statement/<str:shortcode>.csv", statements.statement_export, name="daraja-statement"),
    path("daraja/phone", daraja.phone, name="daraja-phone"),
    path("daraja/phone/<str:checkout_request_id>", daraja.phone_answer, name="daraja-phone-answer"),
    path("daraja/stk/<str:checkout_request_id>/auto", daraja.stk_auto_answer, name="daraja-stk-auto"),
    path("daraja/ratiba/clock", ratiba.clock, name="daraja-ratiba-clock"),
    path("daraja/ratiba/<str:request_ref>/auto", ratiba.auto_answer, name="daraja-ratiba-auto"),
    path("daraja/ratiba/<str:request_ref>/answer", ratiba.phone_answer, name="daraja-ratiba-answer"),
    # Airtel Africa Open API (Airtel Money), as under https://openapiuat.airtel.africa (and its phone).
    path("airtel/auth/oauth2/token", airtel.token, name="airtel-token"),
    path("airtel/merchant/v1/payments/", airtel.push, name="airtel-push"),
    path("airtel/standard/v1/payments/<str:transaction_id>", airtel.enquiry, name="airtel-enquiry"),
    path("airtel/phone", airtel.phone, name="airtel-phone"),
    path("airtel/phone/<int:payment_id>", airtel.phone_answer, name="airtel-phone-answer"),
    path("airtel/push/<int:payment_id>/auto", airtel.auto_answer, name="airtel-auto"),
    path("airtel/statement/<str:msisdn>.csv", airtel.statement, name="airtel-statement"),
    # Paystack, as under https://api.paystack.co (and its checkout page).
    path("paystack/subaccount", paystack.subaccount_create, name="paystack-subaccount"),
    path("paystack/transaction/initialize", paystack.initialize, name="paystack-initialize"),
    path("paystack/transaction/verify/<str:reference>", paystack.verify, name="paystack-verify"),
    path("paystack/checkout/<str:access_code>", paystack.checkout, name="paystack-checkout"),
    # Africa's Talking SMS, as under https://api.africastalking.com (and the local outbox).
    path("sms/version1/messaging", sms.send, name="sms-send"),
    path("sms/outbox", sms.outbox, name="sms-outbox"),
    path("sms/delivery-reports", sms.delivery_reports, name="sms-delivery-reports"),
    # Africa's Talking two-way SMS: a phone texting the shortcode, delivered to our callback.
    path("sms/inbound", sms_inbound.inbound, name="sms-inbound"),
    # Africa's Talking USSD: a feature phone calling our callback as the gateway does.
    path("ussd", ussd.phone, name="ussd-phone"),
]
