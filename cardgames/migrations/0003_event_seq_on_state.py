"""``GameState.next_seq``: the number the table's next event gets, kept with
the state so a move numbers its events without a MAX(seq) query. Tables
already under way carry on from their last event."""

from django.db import migrations, models
from django.db.models import Max, OuterRef, Subquery
from django.db.models.functions import Coalesce


def number_from_the_log(apps, schema_editor):  # type: ignore[no-untyped-def]
    GameState = apps.get_model("cardgames", "GameState")
    GameEvent = apps.get_model("cardgames", "GameEvent")
    last = (
        GameEvent.objects.filter(table_id=OuterRef("table_id"))
        .values("table_id")
        .annotate(m=Max("seq"))
        .values("m")
    )
    GameState.objects.update(next_seq=Coalesce(Subquery(last) + 1, 0))


class Migration(migrations.Migration):
    dependencies = [
        ("cardgames", "0002_presence_per_socket"),
    ]

    operations = [
        migrations.AddField(
            model_name="gamestate",
            name="next_seq",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.RunPython(number_from_the_log, migrations.RunPython.noop),
    ]
