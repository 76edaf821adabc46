"""Connected in ``ChampionsConfig.ready``: a changed champion, team or attribution renders its campaign's
cached views afresh (the leaderboards are kept under the campaign's version: ``champions.selectors``)."""

from typing import Any

from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from campaigns.caching import campaign_changed
from champions.models import Attribution, Champion, Team


@receiver([post_save, post_delete], sender=Champion, dispatch_uid="champions.champion_changed")
@receiver([post_save, post_delete], sender=Team, dispatch_uid="champions.team_changed")
def on_champion_saved(sender: type[Champion | Team], instance: Champion | Team, **kwargs: Any) -> None:
    campaign_changed(campaign_id=instance.campaign_id)


@receiver([post_save, post_delete], sender=Attribution, dispatch_uid="champions.attribution_changed")
def on_attribution_saved(sender: type[Attribution], instance: Attribution, **kwargs: Any) -> None:
    campaign_changed(campaign_id=instance.champion.campaign_id)
