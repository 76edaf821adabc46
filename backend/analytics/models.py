"""Page views of campaign pages, counted on the server: no cookies, no third-party trackers.

One row per campaign and day (Nairobi time). A visitor is never stored: ``services`` recognises
repeat visits of the same day by a salted hash kept only in the cache, as Plausible does.
"""

from django.db import models


class CampaignDailyVisits(models.Model):
    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE, related_name="daily_visits")
    day = models.DateField()
    views = models.PositiveIntegerField(default=0)
    visitors = models.PositiveIntegerField(default=0, help_text="Distinct visitors of the day.")

    class Meta:
        verbose_name_plural = "campaign daily visits"
        # Also the index the analytics page reads a campaign's days with.
        constraints = [models.UniqueConstraint(fields=["campaign", "day"], name="analytics_visits_campaign_day")]

    def __str__(self) -> str:
        return f"Campaign {self.campaign_id} on {self.day}: {self.views} views, {self.visitors} visitors"
