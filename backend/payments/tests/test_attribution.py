"""Attribution: other apps tell payments which campaign a payment was for; only those columns."""

import pytest

from payments.services import ATTRIBUTION_FIELDS, payments_attribute, payments_attribute_where


def test_attribution_is_the_four_columns_other_apps_learn():
    assert {"campaign", "counted_at", "payer_email", "set_aside"} == ATTRIBUTION_FIELDS


def test_an_amount_or_a_status_is_never_attributed():
    with pytest.raises(ValueError, match="amount"):
        payments_attribute(payments=[], fields=["campaign", "amount"])
    with pytest.raises(ValueError, match="status"):
        payments_attribute_where(payment_ids=[1], status="succeeded")
