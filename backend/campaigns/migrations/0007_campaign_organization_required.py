import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("campaigns", "0006_personal_organizations")]

    operations = [
        migrations.AlterField(
            model_name="campaign",
            name="organization",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT, related_name="campaigns", to="organizations.organization"
            ),
        ),
    ]
