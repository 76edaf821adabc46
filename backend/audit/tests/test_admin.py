import pytest
from django.test import Client

from audit.models import AuditAction
from audit.services import audit_record

pytestmark = pytest.mark.django_db

CHANGELIST = "/admin/audit/auditentry/"


@pytest.fixture
def admin_browser(site_admin):
    browser = Client()
    browser.force_login(site_admin)
    return browser


def test_admins_see_the_log_but_can_neither_add_change_nor_delete(admin_browser, campaign, site_admin):
    entry = audit_record(
        actor=site_admin,
        action=AuditAction.CAMPAIGN_STATUS_CHANGED,
        target=campaign,
        before={"status": "active"},
        after={"status": "closed"},
    )

    listing = admin_browser.get(CHANGELIST, {"action__exact": "campaign_status_changed"})
    assert listing.status_code == 200
    assert "Church Roof Repair" in listing.content.decode()
    detail = admin_browser.get(f"{CHANGELIST}{entry.pk}/change/")
    assert detail.status_code == 200
    assert 'name="_save"' not in detail.content.decode()
    assert admin_browser.get(f"{CHANGELIST}add/").status_code == 403
    assert admin_browser.post(f"{CHANGELIST}{entry.pk}/change/", {"object_repr": "forged"}).status_code == 403
    assert admin_browser.post(f"{CHANGELIST}{entry.pk}/delete/", {"post": "yes"}).status_code == 403
    entry.refresh_from_db()
    assert entry.object_repr == "Church Roof Repair"
