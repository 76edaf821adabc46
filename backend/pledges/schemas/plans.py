"""Instalment plans and standing orders in and out."""

from datetime import date

from ninja import Field, Schema

from common.money import AMOUNT_MAX
from payments.models import StandingOrderStatus
from pledges.instalments import Frequency, PlanTerms, Standing
from pledges.models import InstalmentPlan, Pledge

# Instalment plans ----------------------------------------------------------------------------


class PlanIn(Schema):
    """An instalment plan: ``instalment`` whole KES every week or month from ``first_due_on``, the
    last instalment taking the rest of the pledge."""

    instalment: int = Field(ge=1, le=AMOUNT_MAX, description="Whole KES, at most the pledge's amount.")
    frequency: Frequency
    first_due_on: date = Field(description="Pledgers: today or later. Treasurers may record a plan already running.")

    def terms(self) -> PlanTerms:
        return PlanTerms(self.instalment, self.frequency, self.first_due_on)


class StandingOrderOut(Schema):
    """The M-Pesa Ratiba standing order asked for to pay a plan automatically."""

    status: StandingOrderStatus = Field(
        description="pending: waiting for the payer's PIN; active: approved; failed: not created (the plan is "
        "paid by hand)."
    )
    name: str = Field(description="As the payer's phone lists it (to stop it there).")
    amount: int
    start_on: date
    end_on: date
    message: str = Field(description="Why a failed order was not created; empty otherwise.")


class PlanOut(Schema):
    """A pledge's plan and where its pledger stands today (payments count against it in order)."""

    instalment: int
    frequency: Frequency
    first_due_on: date
    instalment_count: int
    last_due_on: date
    next_due_on: date | None = Field(description="The first instalment not yet covered; null once all are.")
    next_due_amount: int | None = Field(description="What is left of that instalment.")
    standing: Standing
    behind_count: int = Field(description="Instalments due by today that the payments do not cover.")
    behind_amount: int = Field(description="What those lack, whole KES.")
    standing_order: StandingOrderOut | None = Field(
        description="Its M-Pesa Ratiba standing order, if one was asked for since the plan was last set."
    )

    @classmethod
    def from_plan(cls, plan: InstalmentPlan) -> "PlanOut":
        schedule = plan.schedule()
        paid = plan.pledge.paid_amount
        upcoming = next((part for part in schedule if part.due_by_then > paid), None)
        where = plan.standing()
        order = plan.standing_order
        return cls(
            standing_order=StandingOrderOut(
                status=StandingOrderStatus(order.status),
                name=order.name,
                amount=order.amount,
                start_on=order.start_on,
                end_on=order.end_on,
                message=order.failure_message(),
            )
            if order
            else None,
            instalment=plan.instalment,
            frequency=Frequency(plan.frequency),
            first_due_on=plan.first_due_on,
            instalment_count=len(schedule),
            last_due_on=schedule[-1].due_on,
            next_due_on=upcoming.due_on if upcoming else None,
            next_due_amount=min(upcoming.amount, upcoming.due_by_then - paid) if upcoming else None,
            standing=where.standing,
            behind_count=where.behind_count,
            behind_amount=where.behind_amount,
        )

    @classmethod
    def of(cls, pledge: Pledge) -> "PlanOut | None":
        plan = pledge.plan
        if plan is None:
            return None
        plan.pledge = pledge
        return cls.from_plan(plan)
