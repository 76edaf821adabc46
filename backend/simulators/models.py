"""What the simulated providers remember. It lives in the database, not in process memory,
because the web server runs several worker processes."""

from django.db import models


class SimulatedStkRequest(models.Model):
    """One STK Push prompt on a simulated phone. ``result_code`` is None until it is answered."""

    merchant_request_id = models.CharField(max_length=64, unique=True)
    checkout_request_id = models.CharField(max_length=64, unique=True)
    shortcode = models.CharField(max_length=16)
    party_b = models.CharField(max_length=16, blank=True, help_text="Where the money goes: the paybill or the till.")
    phone = models.CharField(max_length=16)
    amount = models.PositiveIntegerField()
    account_reference = models.CharField(max_length=12)
    description = models.CharField(max_length=100, blank=True)
    callback_url = models.URLField(max_length=500)
    result_code = models.IntegerField(null=True, blank=True)
    result_desc = models.CharField(max_length=255, blank=True)
    mpesa_receipt = models.CharField(max_length=16, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.checkout_request_id} KES {self.amount} to {self.phone}"


class SimulatedDarajaApp(models.Model):
    """A Daraja app an organization created, linked to its own paybill or till.

    The platform's app (the MPESA_* settings) is always there without a row; tests and the demo add
    an organization's with ``simulators.daraja.daraja_app_register``. ``shortcode`` is the paybill,
    or for a till the store number STK Push names as BusinessShortCode; ``till_number`` the till.
    """

    consumer_key = models.CharField(max_length=128, unique=True)
    consumer_secret = models.CharField(max_length=128)
    shortcode = models.CharField(max_length=16, unique=True)
    passkey = models.CharField(max_length=128)
    till_number = models.CharField(max_length=16, blank=True)
    organization_name = models.CharField(max_length=100, default="Simulated organization")

    def __str__(self) -> str:
        return f"{self.shortcode} ({self.organization_name})"


class SimulatedC2BTransaction(models.Model):
    """A payment someone made to a paybill or till (C2B): what Pull Transactions lists, whether or
    not its confirmation was delivered."""

    trans_id = models.CharField(max_length=16, unique=True)
    shortcode = models.CharField(max_length=16, help_text="The registered shortcode (a till's store number).")
    paid_to = models.CharField(max_length=16, help_text="The number the payer paid: the paybill or the till.")
    transaction_type = models.CharField(max_length=32)
    amount = models.PositiveIntegerField()
    bill_ref_number = models.CharField(max_length=64, blank=True)
    msisdn = models.CharField(max_length=32)
    paid_at = models.DateTimeField()
    confirmation_dropped = models.BooleanField(default=False)

    class Meta:
        ordering = ["paid_at", "id"]

    def __str__(self) -> str:
        return f"{self.trans_id} KES {self.amount} to {self.paid_to}"


class SimulatedPullRegistration(models.Model):
    """A shortcode registered for Pull Transactions."""

    shortcode = models.CharField(max_length=16, unique=True)
    nominated_number = models.CharField(max_length=16)
    callback_url = models.URLField(max_length=500)
    registered_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.shortcode


class SimulatedC2BRegistration(models.Model):
    """The confirmation and validation URLs registered for a shortcode (the last one wins)."""

    shortcode = models.CharField(max_length=16, unique=True)
    response_type = models.CharField(max_length=16)
    confirmation_url = models.URLField(max_length=500)
    validation_url = models.URLField(max_length=500)
    registered_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return self.shortcode


class SimulatedSubaccount(models.Model):
    """A Paystack subaccount: a business's bank account that card payments made ``with`` it settle to."""

    subaccount_code = models.CharField(max_length=32, unique=True)
    business_name = models.CharField(max_length=200)
    settlement_bank = models.CharField(max_length=32, help_text="The bank's code (Paystack's List Banks).")
    account_number = models.CharField(max_length=64)
    percentage_charge = models.DecimalField(
        max_digits=5, decimal_places=2, help_text="The share of each payment the main account keeps."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.subaccount_code} ({self.business_name})"


class SimulatedCardTransaction(models.Model):
    """A Paystack transaction: ``abandoned`` until the payer presses Pay (success) or Decline (failed)."""

    reference = models.CharField(max_length=100, unique=True)
    access_code = models.CharField(max_length=32, unique=True)
    email = models.EmailField()
    amount = models.PositiveBigIntegerField(help_text="In the subunit (KES x 100).")
    currency = models.CharField(max_length=3)
    callback_url = models.URLField(max_length=500, blank=True)
    metadata = models.JSONField(default=dict, blank=True)
    subaccount = models.ForeignKey(
        "SimulatedSubaccount",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        help_text="The subaccount the payment settles to (an organization's bank account); none: the platform's.",
    )
    status = models.CharField(max_length=16, default="abandoned")
    gateway_response = models.CharField(max_length=100, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    paid_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.reference


class SimulatedSms(models.Model):
    """One message the Africa's Talking simulator took: the local SMS outbox."""

    message_id = models.CharField(max_length=64, unique=True)
    username = models.CharField(max_length=64)
    sender_id = models.CharField(max_length=16, blank=True)
    to = models.CharField(max_length=16)
    message = models.TextField()
    status_code = models.PositiveSmallIntegerField()
    # A premium reply (the content API): the text it answers and the shortcode's keyword.
    link_id = models.CharField(max_length=100, blank=True)
    keyword = models.CharField(max_length=64, blank=True)
    # Its delivery report's status once the simulator sent it (``sms.delivery_reports_send``).
    delivery_status = models.CharField(max_length=16, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = "simulated SMS"
        verbose_name_plural = "simulated SMS outbox"

    def __str__(self) -> str:
        return f"SMS to {self.to}: {self.message[:40]}"


class SimulatedStandingOrder(models.Model):
    """An M-Pesa Ratiba standing order: ``pending`` until its payer approves or declines the prompt,
    then ``active`` (executed on its dates as the simulator's clock reaches them) or ``declined``."""

    name = models.CharField(max_length=64)
    request_ref = models.CharField(max_length=64, unique=True)
    shortcode = models.CharField(max_length=16, help_text="The Daraja app's shortcode.")
    paid_to = models.CharField(max_length=16, help_text="The paybill or till the executions pay.")
    phone = models.CharField(max_length=16)
    amount = models.PositiveIntegerField()
    frequency = models.CharField(max_length=2)
    start_on = models.DateField()
    end_on = models.DateField()
    account_reference = models.CharField(max_length=12)
    callback_url = models.URLField(max_length=500)
    status = models.CharField(max_length=16, default="pending")
    result_code = models.CharField(max_length=8, blank=True)
    executed_through = models.DateField(
        null=True, blank=True, help_text="The clock's date when its executions last ran: none on or before it again."
    )
    executions = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["phone", "name"], name="simulators_standing_order_name")]

    def __str__(self) -> str:
        return f"{self.name}: KES {self.amount} from {self.phone} ({self.status})"


class SimulatedAirtelApp(models.Model):
    """An Airtel Africa Open API app of a merchant: its OAuth2 client credentials, the callback URL set in
    Airtel's portal (empty: no callbacks, only the enquiry tells) and, with callback authentication on,
    the key its callbacks' hash is made with. Added with ``simulators.airtel.airtel_app_register``."""

    client_id = models.CharField(max_length=128, unique=True)
    client_secret = models.CharField(max_length=128)
    merchant_msisdn = models.CharField(max_length=16, help_text="The merchant's Airtel number (9 digits).")
    callback_url = models.URLField(max_length=500, blank=True)
    callback_key = models.CharField(max_length=128, blank=True)

    def __str__(self) -> str:
        return f"Airtel app {self.client_id} ({self.merchant_msisdn})"


class SimulatedAirtelPayment(models.Model):
    """One USSD push on a simulated Airtel phone. ``status`` is TIP until the payer answers."""

    app = models.ForeignKey(SimulatedAirtelApp, on_delete=models.CASCADE, related_name="payments")
    transaction_id = models.CharField(max_length=64, help_text="The merchant's id (transaction.id).")
    reference = models.CharField(max_length=64)
    msisdn = models.CharField(max_length=16, help_text="The payer, without the country code.")
    amount = models.PositiveIntegerField()
    status = models.CharField(max_length=4, default="TIP")
    message = models.CharField(max_length=255, blank=True)
    airtel_money_id = models.CharField(max_length=32, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["app", "transaction_id"], name="simulators_airtel_transaction_once")
        ]

    def __str__(self) -> str:
        return f"{self.transaction_id} KES {self.amount} from {self.msisdn} ({self.status})"
