import io
from datetime import timedelta

import pytest
from django.utils import timezone
from pypdf import PdfReader

from campaigns.tests.factories import CampaignFactory
from pledges.tests.factories import make_pledge
from spending.tests.factories import spent

pytestmark = pytest.mark.django_db


def pdf_text(content: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)


def test_the_pdf_reads_back_with_its_totals_in_english_and_kiswahili(make_api_client):
    campaign = CampaignFactory.create()
    make_pledge(campaign, amount=30_000)
    spent(campaign, amount=12_500, category="materials")
    spent(campaign, amount=3_000, category="transport", payee="Otieno Transporters")

    answer = make_api_client(signed_in_as=campaign.organizer).get(f"/api/campaigns/{campaign.pk}/spending-report.pdf")

    assert answer.status_code == 200 and answer["Content-Type"] == "application/pdf"
    text = pdf_text(answer.content)
    assert "How the money was used" in text and "Jinsi pesa zilivyotumika" in text
    assert "Money out" in text and "Pesa zilizotoka" in text
    assert "Pledges outstanding" in text and "Ahadi ambazo bado hazijalipwa" in text
    assert "Ksh 15,500" in text  # spent
    assert "Ksh 30,000" in text  # pledges outstanding
    assert "Otieno Transporters" in text  # the committee sees every payee, with who approved it


def test_a_period_counts_only_what_happened_in_it(make_api_client):
    campaign = CampaignFactory.create()
    last_month = timezone.localdate() - timedelta(days=30)
    spent(campaign, amount=1_000, on=last_month)
    spent(campaign, amount=2_000)
    start = (timezone.localdate() - timedelta(days=7)).isoformat()

    answer = make_api_client(signed_in_as=campaign.organizer).get(
        f"/api/campaigns/{campaign.pk}/spending-report.csv", {"start": start}
    )

    rows = b"".join(answer.streaming_content).decode("utf-8-sig")
    assert "Money out / Pesa zilizotoka,2000" in rows
    assert "1000" not in rows.split("\r\n\r\n")[0]


def test_the_report_is_for_the_team_only(make_api_client):
    campaign = CampaignFactory.create()

    assert make_api_client().get(f"/api/campaigns/{campaign.pk}/spending-report.pdf").status_code == 401
