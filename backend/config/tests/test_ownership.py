"""One writer per table: no app writes a model another app defines (config/ownership.py)."""

from config import ownership

OWNERS = {"Payment": "payments", "Campaign": "campaigns", "CollectionAccount": "collection_accounts"}


def _writes(source: str, module: str = "pledges.services.matching") -> list[str]:
    return [str(write) for write in ownership.writes_in(source, module=module, owners=OWNERS)]


def test_no_app_writes_a_model_another_app_owns():
    assert [str(write) for write in ownership.violations()] == []


def test_every_model_has_one_owner_the_app_defining_it():
    owners = ownership.model_owners()
    assert owners["Payment"] == "payments"
    assert owners["Pledge"] == "pledges"
    assert owners["CollectionAccount"] == "collection_accounts"
    assert owners["Event"] == "events"


def test_the_check_fails_on_a_manager_write_to_another_apps_model():
    source = "Payment.objects.filter(pk=1).update(set_aside='keyword')\nPayment.objects.create(amount=5)\n"
    assert _writes(source) == [
        "pledges.services.matching:1 writes Payment (owned by payments)",
        "pledges.services.matching:2 writes Payment (owned by payments)",
    ]


def test_the_check_fails_on_a_save_or_delete_of_another_apps_model():
    source = (
        "payment.save(update_fields=['campaign'])\n"
        "link.payment.save()\n"
        "Campaign(name='x').save()\n"
        "collection_account.delete()\n"
    )
    assert _writes(source) == [
        "pledges.services.matching:1 writes Payment (owned by payments)",
        "pledges.services.matching:2 writes Payment (owned by payments)",
        "pledges.services.matching:3 writes Campaign (owned by campaigns)",
        "pledges.services.matching:4 writes CollectionAccount (owned by collection_accounts)",
    ]


def test_an_app_writing_its_own_models_and_reading_others_passes():
    source = (
        "Payment.objects.filter(pk=1).update(counted_at=None)\n"
        "Campaign.objects.filter(pk=1).exists()\n"
        "campaign.refresh_from_db()\n"
    )
    assert _writes(source, module="payments.services.attribution") == []
