"""A class may have its tablets read the turn line and the feedback aloud
(issue 50); off by default."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("classroom", "0011_social_completed"),
    ]

    operations = [
        migrations.AddField(
            model_name="schoolclass",
            name="read_aloud",
            field=models.BooleanField(
                default=False, verbose_name="lire à voix haute automatiquement"
            ),
        ),
    ]
