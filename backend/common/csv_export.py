"""CSV downloads: UTF-8 with a byte-order mark (so Excel opens them correctly), streamed a line at a time."""

import csv
import unicodedata
from collections.abc import Iterable, Iterator

from django.http import StreamingHttpResponse

# For an endpoint's ``openapi_extra``: it answers a CSV file.
CSV_OPENAPI = {
    "responses": {
        200: {
            "description": "A CSV file, UTF-8 with a byte-order mark so Excel opens it correctly.",
            "content": {"text/csv": {"schema": {"type": "string"}}},
        }
    }
}


def csv_cell(value: str) -> str:
    """Text as a spreadsheet cell: control characters (line breaks, tabs, escapes, stored before names
    were cleaned) become spaces, and what a spreadsheet would run as a formula (=, +, -, @ first,
    even after spaces) is made inert with a quote."""
    value = "".join(" " if unicodedata.category(char) == "Cc" else char for char in value)
    return f"'{value}" if value.lstrip()[:1] in ("=", "+", "-", "@") else value


class _Echo:
    """A file for csv.writer that hands back each line instead of storing it."""

    def write(self, value: str) -> str:
        return value


def csv_response(rows: Iterable[list[str | int]], *, filename: str) -> StreamingHttpResponse:
    """Streams the rows: the byte-order mark, then one line at a time; never cached."""
    writer = csv.writer(_Echo())

    def lines() -> Iterator[str]:
        yield "\ufeff"
        for row in rows:
            yield writer.writerow(row)

    response = StreamingHttpResponse(lines(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = "no-store"
    return response
