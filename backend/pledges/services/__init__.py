"""Writes of pledges and donations, and how payments reach them.

Reconciliation: every succeeded payment passes through ``payment_record_succeeded`` (the
``payment_succeeded`` receiver) inside the transaction that credits it, with the payment row
locked. A pledge payment whose account reference is a pledge code (paybill payments people make
themselves, STK Pushes started from a pledge, cash and bank payments the organizer records) is
counted towards that pledge; any other stays unmatched until an organizer assigns it. A donation
is counted once its payment succeeds. ``PledgePayment.payment`` being unique and
``Donation.counted_at`` being set under the payment's lock make each count happen exactly once,
however often a provider repeats its callback.

Campaign counters change only here, with ``F()`` updates in those same transactions (an UPDATE
takes the campaign row's lock itself, so concurrent credits queue on it and none is lost).

The package's modules follow those parts: ``core`` (shared rules and counters), ``giving`` (pledging
from the web, a phone and the desk; claiming), ``paying`` (a pledger paying their pledge), ``matching``
(payments to pledges and donations), ``corrections``, ``reversals``, ``donations``, ``plans`` and
``standing_orders`` (a plan paid by M-Pesa Ratiba). Every public name is re-exported here:
``from pledges.services import X`` is how callers write.
"""

from pledges.services.core import CODE_ATTEMPTS, NAME_MAX_LENGTH, REASON_MAX_LENGTH
from pledges.services.corrections import pledge_amount_correct, pledge_cancel, pledge_restore
from pledges.services.donations import (
    DeskGift,
    donation_attach_payment,
    donation_create,
    donation_create_by_phone,
    donation_record_at_desk,
    pledges_personal_data_erase,
)
from pledges.services.giving import (
    DONATION_REFUSALS,
    PLEDGE_REFUSALS,
    WHOLE_AMOUNT_MESSAGE,
    phone_plan_most_instalments,
    phone_plan_refusal,
    phone_plan_terms,
    pledge_amount_refusal,
    pledge_create,
    pledge_create_at_desk,
    pledge_create_by_phone,
    pledges_claim,
)
from pledges.services.matching import (
    payment_record_succeeded,
    payments_record_succeeded,
    pledge_payment_assign,
    pledge_payment_record,
    unmatched_payments_set_aside,
)
from pledges.services.paying import pledge_confirm, pledge_get_by_code, pledge_stk_push_by_phone, pledge_stk_push_start
from pledges.services.plans import pledge_plan_set, pledge_plan_set_by_code
from pledges.services.reversals import payments_record_reversed
from pledges.services.standing_orders import (
    STANDING_ORDER_DESCRIPTION,
    STANDING_ORDER_PROMPT_LAPSES,
    pledge_standing_order_start,
)

__all__ = [
    "CODE_ATTEMPTS",
    "DONATION_REFUSALS",
    "NAME_MAX_LENGTH",
    "PLEDGE_REFUSALS",
    "REASON_MAX_LENGTH",
    "STANDING_ORDER_DESCRIPTION",
    "STANDING_ORDER_PROMPT_LAPSES",
    "WHOLE_AMOUNT_MESSAGE",
    "DeskGift",
    "donation_attach_payment",
    "donation_create",
    "donation_create_by_phone",
    "donation_record_at_desk",
    "payment_record_succeeded",
    "payments_record_reversed",
    "payments_record_succeeded",
    "phone_plan_most_instalments",
    "phone_plan_refusal",
    "phone_plan_terms",
    "pledge_amount_correct",
    "pledge_amount_refusal",
    "pledge_cancel",
    "pledge_confirm",
    "pledge_create",
    "pledge_create_at_desk",
    "pledge_create_by_phone",
    "pledge_get_by_code",
    "pledge_payment_assign",
    "pledge_payment_record",
    "pledge_plan_set",
    "pledge_plan_set_by_code",
    "pledge_restore",
    "pledge_standing_order_start",
    "pledge_stk_push_by_phone",
    "pledge_stk_push_start",
    "pledges_claim",
    "pledges_personal_data_erase",
    "unmatched_payments_set_aside",
]
