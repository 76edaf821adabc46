import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test.client import MULTIPART_CONTENT
from django.utils import timezone

from campaigns.tests.factories import CampaignFactory
from campaigns.tests.wizard_support import image_bytes
from spending.models import SpendingRecord
from spending.tests.factories import spent, treasurer_of

pytestmark = pytest.mark.django_db


def line_form(**changes: object) -> dict[str, object]:
    return {
        "spent_on": timezone.localdate().isoformat(),
        "payee": "Kisumu Hardware Ltd",
        "payee_kind": "organization",
        "category": "materials",
        "amount": 45_000,
        "note": "Iron sheets, 40 pieces",
        **changes,
    }


def test_a_treasurer_records_a_line_with_its_receipt_and_a_second_person_approves_it(make_api_client):
    campaign = CampaignFactory.create()
    treasurer = treasurer_of(campaign)
    receipt = SimpleUploadedFile("receipt.png", image_bytes(), content_type="image/png")

    recorded = make_api_client(signed_in_as=treasurer).post(
        f"/api/campaigns/{campaign.pk}/spending",
        line_form(receipt=receipt, publish_receipt="true"),
        content_type=MULTIPART_CONTENT,
    )

    assert recorded.status_code == 201, recorded.content
    line = recorded.json()
    assert (line["status"], line["recorded_by_me"], line["publish_receipt"]) == ("pending", True, True)
    assert make_api_client(signed_in_as=treasurer).post(f"/api/spending/{line['id']}/approval").status_code == 403
    visitor = make_api_client()
    assert visitor.get(f"/api/campaigns/{campaign.pk}/accountability").json()["figures"]["spent"] == 0
    assert visitor.get(line["receipt_url"]).status_code == 404  # published, but not counted yet

    approved = make_api_client(signed_in_as=campaign.organizer).post(f"/api/spending/{line['id']}/approval")

    assert approved.status_code == 200 and approved.json()["status"] == "approved"
    public = visitor.get(f"/api/campaigns/{campaign.pk}/accountability").json()
    assert public["figures"]["spent"] == 45_000
    assert public["lines"][0]["receipt_url"] == line["receipt_url"]
    picture = visitor.get(line["receipt_url"])
    assert picture.status_code == 200 and picture["Content-Type"] == "image/png"


def test_a_receipt_must_be_a_picture_or_a_pdf(make_api_client):
    campaign = CampaignFactory.create()
    fake = SimpleUploadedFile("receipt.pdf", b"<html>not a pdf</html>", content_type="application/pdf")

    answer = make_api_client(signed_in_as=campaign.organizer).post(
        f"/api/campaigns/{campaign.pk}/spending", line_form(receipt=fake), content_type=MULTIPART_CONTENT
    )

    assert answer.status_code == 422
    assert answer.json()["code"] == "file_type"
    assert not SpendingRecord.objects.exists()


def test_an_unpublished_receipt_is_the_teams_alone(make_api_client):
    campaign = CampaignFactory.create()
    pdf = SimpleUploadedFile("invoice.pdf", b"%PDF-1.4\n%...\n", content_type="application/pdf")
    recorded = make_api_client(signed_in_as=campaign.organizer).post(
        f"/api/campaigns/{campaign.pk}/spending", line_form(receipt=pdf), content_type=MULTIPART_CONTENT
    )
    line_id = recorded.json()["id"]
    make_api_client(signed_in_as=treasurer_of(campaign)).post(f"/api/spending/{line_id}/approval")

    assert make_api_client().get(f"/api/spending/{line_id}/receipt").status_code == 404
    own = make_api_client(signed_in_as=campaign.organizer).get(f"/api/spending/{line_id}/receipt")
    assert own.status_code == 200 and own["Content-Type"] == "application/pdf"


def test_the_public_answer_masks_private_payees_and_costs_few_queries(make_api_client, django_assert_num_queries):
    campaign = CampaignFactory.create()
    spent(campaign, amount=8_000, category="labour", payee="John Otieno Kamau", payee_kind="person")
    spent(campaign, amount=20_000, payee="Kisumu Hardware Ltd")
    visitor = make_api_client()

    visitor.get(f"/api/campaigns/{campaign.pk}/accountability")  # computed once per change of the campaign

    with django_assert_num_queries(0):
        answer = visitor.get(f"/api/campaigns/{campaign.pk}/accountability")

    body = answer.content.decode()
    assert "Otieno" not in body and "Kamau" not in body
    payees = sorted(line["payee"] for line in answer.json()["lines"])
    assert payees == ["J. O. K.", "Kisumu Hardware Ltd"]
    assert answer.json()["figures"]["spent_by_category"] == [
        {"key": "materials", "label": "Materials", "amount": 20_000},
        {"key": "labour", "label": "Labour", "amount": 8_000},
    ]


def test_reversing_through_the_api_restores_the_public_totals(make_api_client):
    campaign = CampaignFactory.create()
    line = spent(campaign, amount=5_000)
    organizer = make_api_client(signed_in_as=campaign.organizer)

    reversal = organizer.post(
        f"/api/spending/{line.pk}/reversal", {"reason": "Paid twice"}, content_type="application/json"
    )

    assert reversal.status_code == 201 and reversal.json()["status"] == "reversal"
    assert make_api_client().get(f"/api/campaigns/{campaign.pk}/accountability").json()["figures"]["spent"] == 0
    team = organizer.get(f"/api/campaigns/{campaign.pk}/spending").json()
    assert sorted(line["status"] for line in team["lines"]) == ["reversal", "reversed"]


def test_an_admin_sees_the_lines_but_does_not_vouch_for_them(make_api_client):
    from accounts.tests.factories import UserFactory

    campaign = CampaignFactory.create()
    line = spent(campaign, amount=5_000, approve=False)
    admin = make_api_client(signed_in_as=UserFactory.create(is_staff=True, is_superuser=True))

    assert admin.get(f"/api/campaigns/{campaign.pk}/spending").status_code == 200
    assert admin.post(f"/api/spending/{line.pk}/approval").status_code == 403
