"""CSV downloads: UTF-8 with a byte-order mark (so Excel opens them correctly), streamed a line at a time."""

import csv
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
