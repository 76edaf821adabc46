import pytest
from django.test import Client

from accounts.tests.factories import UserFactory
from payments.tests.support import pending_stk_intent


@pytest.mark.django_db
def test_staff_can_browse_and_search_the_ledger_but_not_add_or_delete():
    payment = pending_stk_intent()
    browser = Client()
    browser.force_login(UserFactory.create(is_staff=True, is_superuser=True))

    assert payment.reference in browser.get(f"/admin/payments/payment/?q={payment.reference}").content.decode()
    change_page = browser.get(f"/admin/payments/payment/{payment.pk}/change/")
    assert change_page.status_code == 200
    assert 'name="amount"' not in change_page.content.decode()  # money fields are read-only
    assert browser.get("/admin/payments/payment/add/").status_code == 403
    assert browser.get(f"/admin/payments/payment/{payment.pk}/delete/").status_code == 403
    assert browser.get("/admin/payments/paymentevent/").status_code == 200
