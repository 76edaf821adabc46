from collection_accounts.tests.factories import TEST_PAYBILL
from pledges.models import Pledge
from ussd.models import Caller


def test_the_first_screen_offers_pledge_pay_my_pledges_give_kiswahili_and_a_champion(gateway):
    assert gateway.dial() == (
        "CON Harambee\n1. Pledge\n2. Pay a pledge\n3. My pledges\n4. Give now\n5. Kiswahili\n6. Give through a champion"
    )


def test_a_pledge_is_recorded_for_the_callers_number_once_confirmed(gateway, campaign):
    assert gateway.session("1") == "CON Enter the campaign number:\n0 Back 00 Home"
    assert gateway.send(f"1*{campaign.pk}") == "CON Church Roof Repair\nAmount to pledge in Ksh:\n0 Back 00 Home"
    assert gateway.send(f"1*{campaign.pk}*5000").startswith("CON How will you pay Ksh 5,000?\n1. All at once")
    assert gateway.send(f"1*{campaign.pk}*5000*1").startswith("CON Show your pledge publicly?")
    assert gateway.send(f"1*{campaign.pk}*5000*1*2") == (
        "CON Pledge Ksh 5,000 to Church Roof Repair?\nAnonymous\n1. Confirm\n0 Back 00 Home"
    )
    assert not Pledge.objects.exists()

    answer = gateway.send(f"1*{campaign.pk}*5000*1*2*1")

    pledge = Pledge.objects.get()
    assert answer == (
        f"END Thank you! Your pledge code is {pledge.code}. Pay via Paybill {TEST_PAYBILL}, "
        f"account {pledge.code}, or dial again and choose Pay. An SMS follows."
    )
    assert (pledge.phone, pledge.phone_verified, pledge.email, pledge.name) == ("+254711000345", True, "", "")
    assert pledge.channel == "ussd"
    assert (pledge.amount, pledge.is_anonymous, pledge.campaign_id) == (5000, True, campaign.pk)
    campaign.refresh_from_db()
    assert campaign.pledged_total == 5000


def test_a_retried_last_step_gets_the_same_answer_and_no_second_pledge(gateway, campaign):
    first = gateway.session("1", str(campaign.pk), "700", "1", "1", "1")

    assert gateway.send(f"1*{campaign.pk}*700*1*1*1") == first
    assert Pledge.objects.count() == 1


def test_the_language_choice_is_remembered_for_the_number(gateway):
    assert gateway.session("5") == (
        "CON Harambee\n1. Ahadi\n2. Lipa ahadi\n3. Ahadi zangu\n4. Toa sasa\n5. English\n6. Toa kupitia bingwa"
    )
    assert Caller.objects.get(phone="+254711000345").language == "sw"
    assert gateway.dial().startswith("CON Harambee\n1. Ahadi")


def test_a_wrong_token_is_not_found(gateway):
    gateway.dial()
    response = gateway.client.post(
        "/api/ussd/callback/wrong-token", {"sessionId": "x", "phoneNumber": "+254711000345", "text": ""}
    )
    assert response.status_code == 404
