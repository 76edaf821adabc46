import { describe, expect, it } from "vitest";
import { render } from "./entry-server";

const campaign = {
  id: 14,
  type: "pledging",
  status: "active",
  title: "Church Roof <Repair>",
  description: "Help us reach our goal.",
  category: "church",
  category_label: "Kanisa",
  goal: 100_000,
  pledged_total: 25_000,
  raised_total: 5_000,
  donor_count: 1,
  donors: 0,
  payers: 1,
  progress_percent: 25,
  progress_percent_uncapped: 25,
  media_type: "image",
  image_url: "/media/uploads/20261126094501-0123456789abcdef.jpg",
  cover_srcset: [
    { url: "/media/uploads/20261126094501-0123456789abcdef-480.webp", width: 480 },
    { url: "/media/uploads/20261126094501-0123456789abcdef-960.webp", width: 960 },
  ],
  youtube_id: "",
  cover_image_url: "",
  end_date: "2026-12-31",
  days_left: 35,
  has_ended: false,
  like_count: null,
  liked_by_me: false,
  story: "We need a roof.",
  payment_instructions: [],
  organizer_name: "Grace Wanjiku",
  organizer: null,
  can_edit: false,
  can_see_pledges: false,
  can_manage_pledges: false,
  viewer_role: null,
  organization_name: "ICC Imara",
  can_share: false,
  share_url: "https://harambee.example/campaign/14",
  pledges: [{ id: 1, name: "Peter Mutua", amount: 2_500, created_at: "2026-11-25T21:30:00Z" }],
  donations: [],
};
const queries = [
  { queryKey: ["campaigns", "detail", 14], data: campaign },
  { queryKey: ["ussd"], data: { service_code: "*384*4242#" } },
];

describe("the server's render of the campaign page", () => {
  it("is the page with its cover, title and figures, without any script", async () => {
    const { html, messages } = await render({ path: "/campaign/14", language: "en", queries });

    expect(html).toContain(">Church Roof &lt;Repair&gt;</h1>");
    expect(html).toMatch(
      /<img src="\/media\/uploads\/[^"]+\.jpg" srcSet="[^"]+-480\.webp 480w, [^"]+-960\.webp 960w"/,
    );
    expect(html).toContain('fetchPriority="high"');
    expect(html).toContain("Ksh 25,000");
    expect(html).toContain("*384*4242#");
    expect(html).not.toContain("<script");
    expect(messages).toEqual({});
  });

  it("in Kiswahili, with the messages it shows, days in Kenya's time", async () => {
    const { html, messages } = await render({ path: "/campaign/14", language: "sw", queries });

    expect(html).toContain("Hadithi");
    expect(Object.keys(messages).length).toBeGreaterThan(10);
    expect(JSON.stringify(messages)).toContain("Hadithi");
    // 21:30 UTC on the 25th is past midnight in Nairobi.
    expect(html).toMatch(/<time dateTime="2026-11-25T21:30:00Z">26 [^<]+ 2026<\/time>/);
  });
});
