from django.db import migrations, models


def channel_of_existing_pledges(apps, schema_editor):
    """Where each earlier pledge was made, from what it left behind: a pledge card has its desk
    entry; a PLEDGE text is the inbound SMS that made it (an SMS that paid a pledge names it too,
    so only those whose outcome was a pledge count); any other pledge from a number the network
    gave came by USSD; the rest from the campaign page (the added column's value)."""
    Pledge = apps.get_model("pledges", "Pledge")
    DeskEntry = apps.get_model("desk", "DeskEntry")
    InboundSms = apps.get_model("sms_keywords", "InboundSms")
    texted = InboundSms.objects.filter(outcome="pledged", pledge__isnull=False).values("pledge")
    typed_at_desk = DeskEntry.objects.filter(pledge__isnull=False).values("pledge")
    Pledge.objects.filter(phone_verified=True).update(channel="ussd")
    Pledge.objects.filter(phone_verified=True, pk__in=texted).update(channel="sms")
    Pledge.objects.filter(pk__in=typed_at_desk).update(channel="desk")


class Migration(migrations.Migration):
    dependencies = [
        ("pledges", "0007_instalmentplan_standing_order"),
        ("desk", "0001_initial"),
        ("sms_keywords", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="pledge",
            name="channel",
            field=models.CharField(
                choices=[("web", "Online"), ("ussd", "USSD"), ("sms", "SMS"), ("desk", "Event desk")],
                default="web",
                max_length=8,
            ),
            preserve_default=False,
        ),
        migrations.RunPython(channel_of_existing_pledges, migrations.RunPython.noop),
    ]
