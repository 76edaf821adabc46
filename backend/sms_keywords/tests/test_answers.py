"""Each keyword in English and Kiswahili, through the services the web and USSD use."""

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.tests.factories import UserFactory
from campaigns.models import Campaign, CampaignStatus
from campaigns.tests.factories import CampaignFactory, link_account
from champions.models import Attribution, Champion
from champions.services import champion_create
from collection_accounts.models import CollectionAccountKind
from collection_accounts.tests.factories import CollectionAccountFactory
from notifications.models import NotificationLog, PledgeOptOut
from notifications.sms_length import sms_length
from pledges.instalments import Frequency, PlanByCount, add_months
from pledges.models import InstalmentPlan, Pledge, PledgeChannel, PledgeStatus
from pledges.services import pledge_create_by_phone
from sms_keywords.models import InboundSms
from ussd.models import Caller


def test_a_pledge_is_recorded_for_the_senders_number_and_confirmed_by_its_own_sms(phone, campaign):
    assert phone.text(f"PLEDGE {campaign.pk} 5000") == ""  # no second message: the confirmation is it

    pledge = Pledge.objects.get()
    assert (pledge.phone, pledge.phone_verified, pledge.amount, pledge.is_anonymous, pledge.language) == (
        "+254711000345",
        True,
        5000,
        True,
        "en",
    )
    assert pledge.channel == "sms"
    assert pledge.user is None
    campaign.refresh_from_db()
    assert campaign.pledged_total == 5000
    assert InboundSms.objects.get().pledge == pledge


def test_a_pledge_naming_a_champions_code_is_their_campaigns_pledge_attributed_to_them(phone, campaign):
    champion = champion_create(campaign_id=campaign.pk, user=UserFactory.create(), goal=20_000)

    assert phone.text(f"ahadi {champion.code.lower()} 3,000") == ""  # its own confirmation SMS, as any pledge's

    pledge = Pledge.objects.get()
    assert (pledge.campaign, pledge.amount, pledge.phone, pledge.channel, pledge.language) == (
        campaign,
        3_000,
        "+254711000345",
        "sms",
        "sw",
    )
    assert Attribution.objects.get(pledge=pledge).champion == champion
    assert Champion.objects.get(pk=champion.pk).pledged == 3_000
    assert InboundSms.objects.get().pledge == pledge


def test_a_pledge_naming_no_open_campaigns_champion_is_refused_with_the_reason(phone, campaign):
    closed = CampaignFactory.create()
    champion = champion_create(campaign_id=closed.pk, user=UserFactory.create(), goal=20_000)
    Campaign.objects.filter(pk=closed.pk).update(status=CampaignStatus.CLOSED)

    assert phone.text(f"PLEDGE {champion.code} 500") == (
        f"No champion of an open campaign has the code {champion.code}."
    )
    assert phone.text("PLEDGE ZZZZZZ 500") == "No champion of an open campaign has the code ZZZZZZ."
    assert not Pledge.objects.exists()


def test_ahadi_pledges_in_kiswahili_with_odd_spacing_and_case(phone, campaign):
    phone.text(f"  aHaDi  {campaign.pk}   2,500 ")

    pledge = Pledge.objects.get()
    assert (pledge.amount, pledge.language) == (2500, "sw")
    assert Caller.objects.get(phone="+254711000345").language == "sw"


def test_a_pledge_with_a_plan_is_paid_in_that_many_instalments_in_either_language(phone, make_phone, db):
    building = CampaignFactory.create(end_date=timezone.localdate() + timedelta(days=365))
    phone.text(f"PLEDGE {building.pk} 12000 3M")
    make_phone(number="+254711000999").text(f"ahadi {building.pk} 10,000 4w")

    monthly, weekly = InstalmentPlan.objects.order_by("pledge__created_at", "pledge__id")
    assert [part.amount for part in monthly.schedule()] == [4_000] * 3
    assert (monthly.frequency, monthly.first_due_on) == ("monthly", add_months(timezone.localdate(), 1))
    assert [part.amount for part in weekly.schedule()] == [2_500] * 4
    assert (weekly.frequency, weekly.pledge.language) == ("weekly", "sw")


def test_a_plan_that_does_not_fit_before_the_campaign_ends_is_refused_with_the_reason(phone, campaign):
    # The campaign ends in 30 days.
    assert phone.text(f"PLEDGE {campaign.pk} 12000 3M") == "The campaign ends too soon for monthly instalments."
    assert phone.text(f"PLEDGE {campaign.pk} 12000 9W") == "Please choose from 2 to 4 weekly instalments."
    assert not Pledge.objects.exists()


def test_pay_without_an_amount_asks_for_the_instalment_due(phone, campaign, django_capture_on_commit_callbacks):
    pledge = pledge_create_by_phone(
        campaign_id=campaign.pk,
        amount=12_000,
        phone="+254711000345",
        is_anonymous=True,
        channel=PledgeChannel.SMS,
        plan=PlanByCount(3, Frequency.WEEKLY),
    )

    with django_capture_on_commit_callbacks():
        reply = phone.text(f"PAY {pledge.code}")

    assert reply == f"Enter your M-Pesa PIN when asked, to pay Ksh 4,000 for pledge {pledge.code}."


@pytest.mark.parametrize(
    ("text", "reply"),
    [
        ("PLEDGE 999999 100", "No open campaign has the number 999999."),
        ("PLEDGE {campaign} 0", "Please enter a whole amount from Ksh 1 to Ksh 1,000,000,000."),
        # Hundreds of digits: the usual answer, not a server error (the gateway would send the text again).
        ("PLEDGE {campaign} " + "9" * 900, "Please enter a whole amount from Ksh 1 to Ksh 1,000,000,000."),
        ("PLEDGE {campaign}", "To pledge, text PLEDGE, the campaign number and the amount, e.g. PLEDGE 14 5000."),
    ],
)
def test_a_pledge_that_cannot_be_made_is_answered_with_the_reason(phone, campaign, text, reply):
    assert phone.text(text.format(campaign=campaign.pk)).startswith(reply)
    assert not Pledge.objects.exists()


def test_pay_sends_the_pin_prompt_to_the_sender_in_a_task(phone, campaign, django_capture_on_commit_callbacks):
    pledge = pledge_create_by_phone(
        campaign_id=campaign.pk, amount=1500, phone="+254711000345", is_anonymous=True, channel=PledgeChannel.SMS
    )

    with django_capture_on_commit_callbacks() as callbacks:
        reply = phone.text(f"pay {pledge.code.lower()} 400")

    assert reply == f"Enter your M-Pesa PIN when asked, to pay Ksh 400 for pledge {pledge.code}."
    assert InboundSms.objects.get().outcome == InboundSms.Outcome.PROMPTED
    enqueued = [callback.func.__self__.name for callback in callbacks if hasattr(callback, "func")]
    assert "sms_stk_push_send" in enqueued


def test_lipa_answers_in_kiswahili(phone, campaign):
    pledge = pledge_create_by_phone(
        campaign_id=campaign.pk, amount=1500, phone="+254711000345", is_anonymous=True, channel=PledgeChannel.SMS
    )

    assert phone.text(f"LIPA {pledge.code}") == (
        f"Weka PIN yako ya M-Pesa utakapoulizwa, kulipa Ksh 1,500 kwa ahadi {pledge.code}."
    )


@pytest.mark.parametrize(
    ("keyword", "reply"),
    [
        ("PAY", "No unpaid pledge of this number has the code {code}. Text BAL to see your pledges."),
        ("LIPA", "Hakuna ahadi ambayo haijalipwa ya nambari hii yenye nambari {code}. Tuma SALIO kuona ahadi zako."),
    ],
)
def test_a_mistyped_code_is_answered_as_unknown_in_the_sender_s_language(phone, campaign, keyword, reply):
    pledge = pledge_create_by_phone(
        campaign_id=campaign.pk, amount=900, phone="+254711000345", is_anonymous=True, channel=PledgeChannel.SMS
    )
    mistyped = pledge.code[:-1] + ("A" if pledge.code[-1] != "A" else "B")

    assert phone.text(f"{keyword} {mistyped.lower()}") == reply.format(code=mistyped)
    assert InboundSms.objects.get().outcome == InboundSms.Outcome.REFUSED


@pytest.mark.parametrize(
    ("keyword", "reply"),
    [("PAY", "Your pledge {code} is fully paid. Thank you!"), ("LIPA", "Ahadi yako {code} imelipwa yote. Asante!")],
)
def test_pay_for_a_paid_up_pledge_says_it_is_paid_in_the_sender_s_language(phone, campaign, keyword, reply):
    pledge = pledge_create_by_phone(
        campaign_id=campaign.pk, amount=900, phone="+254711000345", is_anonymous=True, channel=PledgeChannel.SMS
    )
    Pledge.objects.filter(pk=pledge.pk).update(paid_amount=900, status=PledgeStatus.CONFIRMED)

    assert phone.text(f"{keyword} {pledge.code}") == reply.format(code=pledge.code)


def test_pay_refuses_a_pledge_of_another_number_and_an_amount_beyond_what_is_left(phone, campaign):
    theirs = pledge_create_by_phone(
        campaign_id=campaign.pk, amount=900, phone="+254722000111", is_anonymous=True, channel=PledgeChannel.SMS
    )
    mine = pledge_create_by_phone(
        campaign_id=campaign.pk, amount=900, phone="+254711000345", is_anonymous=True, channel=PledgeChannel.SMS
    )

    assert phone.text(f"PAY {theirs.code}") == (
        f"No unpaid pledge of this number has the code {theirs.code}. Text BAL to see your pledges."
    )
    assert phone.text(f"PAY {mine.code} 901") == "Please enter an amount from Ksh 1 to Ksh 900."
    assert (
        phone.text("PAY 12345")
        == "To pay, text PAY, the pledge code and, for part of it, the amount, e.g. PAY ABC1234 500."
    )


def test_pay_without_an_account_taking_prompts_says_how_to_pay_the_campaigns_own_till(phone):
    campaign = CampaignFactory.create(title="Church Roof Repair")
    till = CollectionAccountFactory.create(
        organization=campaign.organization, kind=CollectionAccountKind.TILL, paybill_number="", till_number="5123456"
    )
    link_account(campaign, till)
    pledge = pledge_create_by_phone(
        campaign_id=campaign.pk, amount=700, phone="+254711000345", is_anonymous=True, channel=PledgeChannel.SMS
    )

    reply = phone.text(f"PAY {pledge.code}")

    assert reply.startswith(f"Pay Ksh 700 for pledge {pledge.code} via ") and "5123456" in reply
    assert InboundSms.objects.get().outcome == InboundSms.Outcome.INSTRUCTED


def test_bal_lists_open_pledges_and_salio_in_kiswahili(phone, campaign):
    pledge = pledge_create_by_phone(
        campaign_id=campaign.pk, amount=1500, phone="+254711000345", is_anonymous=True, channel=PledgeChannel.SMS
    )

    assert phone.text("BAL") == f"Your pledges: {pledge.code} Church Roof Repair: paid Ksh 0, left Ksh 1,500;"
    assert phone.text("salio") == f"Ahadi zako: {pledge.code} Church Roof Repair: umelipa Ksh 0, imebaki Ksh 1,500;"


def test_bal_without_pledges_says_how_to_pledge(phone):
    assert phone.text("BAL") == "You have no pledges. To pledge, text PLEDGE, the campaign number and the amount."


def test_stop_ends_reminders_for_every_pledge_of_the_number_and_sitisha_too(phone, campaign):
    first = pledge_create_by_phone(
        campaign_id=campaign.pk, amount=100, phone="+254711000345", is_anonymous=True, channel=PledgeChannel.SMS
    )
    other = pledge_create_by_phone(
        campaign_id=campaign.pk, amount=100, phone="+254722000111", is_anonymous=True, channel=PledgeChannel.SMS
    )

    assert phone.text("STOP").startswith("You will get no more reminders for the pledges of this number.")
    assert set(PledgeOptOut.objects.values_list("pledge", flat=True)) == {first.pk}
    assert phone.text("SITISHA")
    assert InboundSms.objects.filter(outcome=InboundSms.Outcome.STOPPED).count() == 2
    assert not PledgeOptOut.objects.filter(pledge=other).exists()


@pytest.mark.parametrize("text", ["hello", "Nataka kutoa", "PLEDGES 14 5000", "?"])
def test_anything_else_gets_the_help_text(phone, text):
    assert phone.text(text).startswith("To pledge, text PLEDGE, the campaign number and the amount (PLEDGE 14 5000).")


def test_msaada_and_unknown_words_from_a_kiswahili_sender_are_answered_in_kiswahili(phone):
    kiswahili = phone.text("MSAADA")

    assert kiswahili.startswith("Kuweka ahadi, tuma AHADI, nambari ya harambee na kiasi")
    assert phone.text("habari") == kiswahili  # the last keyword's language is remembered
    assert phone.text("HELP") != kiswahili


def test_replies_are_messages_the_sender_asked_for(phone):
    phone.text("HELP")

    log = NotificationLog.objects.get()
    from notifications.recipient_limits import UNASKED_TEMPLATES

    assert log.template not in UNASKED_TEMPLATES


@pytest.mark.parametrize(
    "text",
    [
        "HELP",
        "MSAADA",
        "PLEDGE 14",
        "AHADI 14",
        "PAY",
        "LIPA",
        "PAY ZZZZZZZ",
        "LIPA ZZZZZZZ",
        "BAL",
        "SALIO",
        "STOP",
        "SITISHA",
        "PLEDGE 999999999 1000000000",
        "AHADI 999999999 1000000000",
        "PLEDGE ZZZZZZ 500",
        "AHADI ZZZZZZ 500",
    ],
)
def test_every_answer_is_one_sms_in_the_sender_s_language(phone, text):
    reply = phone.text(text)

    assert reply and sms_length(reply).fits_one_sms, f"{sms_length(reply).used}: {reply}"
