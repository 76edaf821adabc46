import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { type Plan, planBody, planCadence, planStandingLabel, pledgeWithPlanSchema } from "./plans";

const plan = (standing: Plan["standing"], behind_count = 0, behind_amount = 0): Plan => ({
  instalment: 5000,
  frequency: "monthly",
  first_due_on: "2026-01-31",
  instalment_count: 12,
  last_due_on: "2026-12-31",
  next_due_on: "2026-02-28",
  next_due_amount: 5000,
  standing,
  behind_count,
  behind_amount,
  standing_order: null,
});

describe("planStandingLabel", () => {
  it("says on track, ahead, or behind by how many instalments and how much", () => {
    expect(planStandingLabel(plan("on_track"))).toBe("On track");
    expect(planStandingLabel(plan("ahead"))).toBe("Ahead");
    expect(planStandingLabel(plan("behind", 1, 5000))).toBe("Behind by 1 instalment (Ksh 5,000)");
    expect(planStandingLabel(plan("behind", 3, 12500))).toBe("Behind by 3 instalments (Ksh 12,500)");
  });

  it("names the cadence", () => {
    expect(planCadence(plan("ahead"))).toBe("Ksh 5,000 a month");
    expect(planCadence({ instalment: 250, frequency: "weekly" })).toBe("Ksh 250 a week");
  });
});

describe("the pledge form's instalments", () => {
  const pledge = { name: "Njeri", email: "njeri@example.com", phone: "0711000222", amount: "60,000" };
  const terms = { instalment: "", frequency: "monthly" as const, firstDueOn: "" };

  it("ignores the plan's fields unless paying in instalments", () => {
    const values = { ...pledge, isAnonymous: false, payInInstalments: false, ...terms };
    expect(v.safeParse(pledgeWithPlanSchema, values).success).toBe(true);
  });

  it("asks for the instalment and the first due date when paying in instalments", () => {
    const values = { ...pledge, isAnonymous: false, payInInstalments: true, ...terms };
    const issues = v.safeParse(pledgeWithPlanSchema, values).issues ?? [];
    expect(issues.map((issue) => v.getDotPath(issue))).toEqual(["instalment", "firstDueOn"]);
  });

  it("sends whole shillings and the server's field names", () => {
    expect(planBody({ instalment: "5,000", frequency: "weekly", firstDueOn: "2026-03-01" })).toEqual({
      instalment: 5000,
      frequency: "weekly",
      first_due_on: "2026-03-01",
    });
  });
});
