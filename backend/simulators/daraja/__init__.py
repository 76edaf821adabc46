"""A local Safaricom Daraja: the sandbox's paths, bodies, answers and error codes, so the real
adapter (payments.providers.daraja) runs unchanged against it.

Beyond Daraja's own endpoints it has two helpers: ``POST c2b/simulate`` plays a customer
paying a paybill or till (and can lose the confirmation, so that only Pull Transactions finds the
payment), and ``GET phone`` is a virtual phone showing open STK prompts with Approve and Decline
buttons.

It serves several Daraja apps, each linked to one shortcode with its own consumer key, secret and
passkey: the platform's (this site's MPESA_* settings) and any an organization made
(``SimulatedDarajaApp``, added with ``daraja_app_register`` or in the admin). A token is good
only for its own app's shortcode.

Its modules follow Daraja's parts: ``apps`` (the apps, the token and the checks every request passes),
``stk``, ``c2b`` and ``pull``. The views and the names other code uses are re-exported here.
"""

from simulators.daraja.apps import daraja_app_register, oauth_generate
from simulators.daraja.c2b import c2b_register_url, c2b_simulate, c2b_simulate_daraja
from simulators.daraja.pull import pull_query, pull_register
from simulators.daraja.stk import (
    phone,
    phone_answer,
    stk_auto_answer,
    stk_callback_body,
    stk_outcome,
    stk_push,
    stk_query,
)

__all__ = [
    "c2b_register_url",
    "c2b_simulate",
    "c2b_simulate_daraja",
    "daraja_app_register",
    "oauth_generate",
    "phone",
    "phone_answer",
    "pull_query",
    "pull_register",
    "stk_auto_answer",
    "stk_callback_body",
    "stk_outcome",
    "stk_push",
    "stk_query",
]
