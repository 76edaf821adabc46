"""A trigram index for the campaign search on PostgreSQL.

``selectors.campaign_list`` filters ``SearchText("title", "description")`` with ``icontains``,
which PostgreSQL runs as ``UPPER((title || ' ' || description)::text) LIKE UPPER('%word%')``:
a GIN index over that same expression with ``gin_trgm_ops`` answers it without reading every
row. SQLite has no such index and scans, which is fine for local data.
"""

from django.db import migrations

INDEX = "campaigns_campaign_search_trgm"


def create_index(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    # pg_trgm is a trusted extension (PostgreSQL 13+): the database owner may create it.
    schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    schema_editor.execute(
        f"CREATE INDEX IF NOT EXISTS {INDEX} ON campaigns_campaign "
        "USING gin (UPPER((title || ' ' || description)) gin_trgm_ops)"
    )


def drop_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP INDEX IF EXISTS {INDEX}")


class Migration(migrations.Migration):
    dependencies = [("campaigns", "0001_initial")]

    operations = [migrations.RunPython(create_index, drop_index)]
