from datetime import date

from ninja import Field, Schema

from campaigns.models import CampaignStatus
from payments.models import Payment
from pledges.models import PledgeStatus


class AnalyticsDayOut(Schema):
    day: date = Field(description="A Nairobi day.")
    pledged: int = Field(description="Pledged that day, whole KES.")
    paid: int = Field(description="Paid that day (pledge payments and donations), whole KES.")
    donated: int = Field(description="The donations among paid, whole KES.")
    pledged_cumulative: int = Field(description="Pledged up to and including that day, whole KES.")
    paid_cumulative: int = Field(description="Paid up to and including that day, whole KES.")
    views: int = Field(description="Views of the campaign page that day.")
    visitors: int = Field(description="Distinct visitors of the campaign page that day.")


class PledgeStatusFiguresOut(Schema):
    status: PledgeStatus
    label: str = Field(description="The state's name in the site language.")
    count: int
    amount: int = Field(description="Sum of these pledges, whole KES.")
    paid: int = Field(description="Paid towards these pledges, whole KES.")


class PaymentMethodFiguresOut(Schema):
    method: Payment.Provider
    label: str = Field(description="The method's name in the site language.")
    count: int
    amount: int = Field(description="Whole KES.")


class PlanMonthOut(Schema):
    month: date = Field(description="The month's first day.")
    promised: int = Field(description="What the instalment plans of live pledges fall due that month, whole KES.")
    arrived: int = Field(description="All the money counted that month (every pledge payment and donation), whole KES.")
    towards_plans: int = Field(
        description="Of it, the payments to pledges that have an instalment plan: what answers 'promised', whole KES."
    )


class CampaignAnalyticsOut(Schema):
    campaign_id: int = Field(alias="campaign.pk")
    title: str = Field(alias="campaign.title")
    status: CampaignStatus = Field(alias="campaign.status")
    goal: int = Field(alias="campaign.goal", description="Whole KES.")
    pledged_total: int = Field(description="Sum of the pledges, whole KES.")
    paid_total: int = Field(description="Sum of the payments counted (pledge payments and donations), whole KES.")
    pledge_count: int
    donation_count: int
    views: int = Field(description="Views of the campaign page, without the organizer's and admins' own.")
    visitors: int = Field(description="Unique visitors, summed over days.")
    conversion_percent: float | None = Field(
        description="Share of unique visitors who pledged or donated, in percent (one decimal); null before any visit."
    )
    days: list[AnalyticsDayOut] = Field(description="Every day from the campaign's start to today or its end.")
    pledges_by_status: list[PledgeStatusFiguresOut] = Field(description="Confirmed, partly paid, pending.")
    payments_by_method: list[PaymentMethodFiguresOut] = Field(description="Every method, in a fixed order.")
    top_days: list[AnalyticsDayOut] = Field(description="Up to 5 days with the most pledged plus donated, best first.")
    plan_months: list[PlanMonthOut] = Field(
        description="Month by month, what instalment plans promise beside what arrived; empty without plans."
    )
