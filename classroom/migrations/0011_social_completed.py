"""A social record says whether its game reached its own end (issue 46): a
table cut short by the end of the lesson has no place and no win."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("classroom", "0010_rate_counter"),
    ]

    operations = [
        migrations.AddField(
            model_name="socialrecord",
            name="completed",
            field=models.BooleanField(default=True),
        ),
    ]
