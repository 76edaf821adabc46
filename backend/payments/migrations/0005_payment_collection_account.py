# Payments name the organization's account they were paid into; the connection is reached through it.

import django.db.models.deletion
from django.db import migrations, models


def collection_account_from_connection(apps, schema_editor):
    """A payment into a connected account names that account: the connection is reached through it."""
    payments = apps.get_model("payments", "Payment").objects.using(schema_editor.connection.alias)
    for payment in payments.filter(mpesa_connection__isnull=False).select_related("mpesa_connection"):
        payment.collection_account_id = payment.mpesa_connection.account_id
        payment.save(update_fields=["collection_account"])


class Migration(migrations.Migration):

    dependencies = [
        ('collection_accounts', '0002_account_keywords'),
        ('payments', '0004_mpesa_connections'),
    ]

    operations = [
        migrations.AddField(
            model_name='payment',
            name='collection_account',
            field=models.ForeignKey(blank=True, help_text="The organization's account the money was paid into (a PIN prompt to its paybill or till, a paybill payment to it); empty for the platform's own fees, paid to Harambee's paybill.", null=True, on_delete=django.db.models.deletion.PROTECT, related_name='payments', to='collection_accounts.collectionaccount'),
        ),
        migrations.AddField(
            model_name='payment',
            name='set_aside',
            field=models.CharField(blank=True, choices=[('keyword', 'Not for Harambee (an account keyword such as TITHE)'), ('not_for_a_campaign', 'Not for a campaign')], help_text="Money paid into an organization's account that is not for any campaign: kept, never listed among the unmatched payments.", max_length=24),
        ),
        migrations.RunPython(collection_account_from_connection, migrations.RunPython.noop),
        migrations.RemoveField(
            model_name='payment',
            name='mpesa_connection',
        ),
    ]
