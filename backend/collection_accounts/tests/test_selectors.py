import pytest

from collection_accounts.selectors import collection_account_for_shortcode
from collection_accounts.tests.factories import CollectionAccountFactory

pytestmark = pytest.mark.django_db


def test_a_shortcode_finds_the_paybill_or_the_till_by_its_store_else_its_own_number():
    paybill = CollectionAccountFactory.create(paybill_number="600100")
    till_with_store = CollectionAccountFactory.create(
        kind="till", paybill_number="", till_number="5123456", store_number="5123400"
    )
    own_store = CollectionAccountFactory.create(kind="till", paybill_number="", till_number="5999999")
    CollectionAccountFactory.create(kind="paybill_fixed_account", paybill_number="247247", account_number="0123456789")

    assert collection_account_for_shortcode(shortcode="600100") == paybill
    assert collection_account_for_shortcode(shortcode="5123400") == till_with_store
    assert collection_account_for_shortcode(shortcode="5123456") is None
    assert collection_account_for_shortcode(shortcode="5999999") == own_store
    # A bank's collection paybill reports to the bank, never to us.
    assert collection_account_for_shortcode(shortcode="247247") is None
    assert collection_account_for_shortcode(shortcode="") is None
