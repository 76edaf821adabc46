from django.db import models


class RateLimitCounter(models.Model):
    """One fixed-window attempt counter of ``common.ratelimit`` when the cache is not Redis.

    Counted in SQL (``INSERT … ON CONFLICT DO UPDATE … RETURNING``), so parallel requests on any
    number of instances increment it atomically; Django's database cache keeps pickled values that
    SQL cannot add to. Rows whose window ended are reused by the next attempt or purged.
    """

    key = models.CharField(max_length=100, primary_key=True)
    count = models.PositiveIntegerField()
    # Unix time (seconds) at which the window ends: the same clock as ``time.time()`` in every process.
    ends_at = models.FloatField(db_index=True)

    class Meta:
        db_table = "common_rate_limit_counter"

    def __str__(self) -> str:
        return f"{self.key}: {self.count}"
