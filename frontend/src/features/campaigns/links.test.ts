import { describe, expect, it } from "vitest";
import { clampPercent } from "@/components/ProgressBar";
import {
  embedSnippets,
  exploreSearch,
  formatCalendarDate,
  parseCampaignId,
  shareLinks,
  youtubeEmbedUrl,
} from "./links";

describe("shareLinks", () => {
  const links = shareLinks("https://harambee.example/campaign/7", "Water & Hope: Kathonzweni?");

  it("gives Twitter the title and the campaign address, both encoded", () => {
    expect(links.twitter).toBe(
      "https://twitter.com/intent/tweet?text=Water%20%26%20Hope%3A%20Kathonzweni%3F" +
        "&url=https%3A%2F%2Fharambee.example%2Fcampaign%2F7",
    );
  });

  it("gives Facebook the campaign address", () => {
    expect(links.facebook).toBe(
      "https://www.facebook.com/sharer/sharer.php?u=https%3A%2F%2Fharambee.example%2Fcampaign%2F7",
    );
  });

  it("gives WhatsApp one message with the title followed by the address", () => {
    const url = new URL(links.whatsapp);
    expect(url.origin + url.pathname).toBe("https://wa.me/");
    expect(url.searchParams.get("text")).toBe(
      "Water & Hope: Kathonzweni? https://harambee.example/campaign/7",
    );
  });
});

describe("youtubeEmbedUrl", () => {
  it("uses the no-cookie player", () => {
    expect(youtubeEmbedUrl("dQw4w9WgXcQ")).toBe("https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ");
  });
});

describe("clampPercent", () => {
  it("caps progress past the goal at 100", () => {
    expect(clampPercent(135)).toBe(100);
  });

  it("keeps whole percentages between 0 and 100", () => {
    expect(clampPercent(42.4)).toBe(42);
    expect(clampPercent(-5)).toBe(0);
    expect(clampPercent(Number.NaN)).toBe(0);
  });
});

describe("parseCampaignId", () => {
  it("accepts positive whole numbers", () => {
    expect(parseCampaignId("42")).toBe(42);
  });

  it("refuses anything that cannot be a campaign id", () => {
    for (const raw of [undefined, "", "abc", "-1", "0", "1.5", "99999999999999999999"]) {
      expect(parseCampaignId(raw)).toBeNull();
    }
  });
});

describe("formatCalendarDate", () => {
  it("shows the calendar date itself whatever the time zone", () => {
    expect(formatCalendarDate("2026-03-01", "en")).toBe("Mar 1, 2026");
    expect(formatCalendarDate("2026-12-31", "sw")).toBe("31 Des 2026");
  });

  it("names every month as Intl.DateTimeFormat's medium date does, in both languages", () => {
    for (const locale of ["en", "sw"]) {
      const intl = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" });
      for (let month = 1; month <= 12; month++) {
        const iso = `2026-${String(month).padStart(2, "0")}-09`;
        expect(formatCalendarDate(iso, locale)).toBe(intl.format(new Date(`${iso}T00:00:00Z`)));
      }
    }
  });
});

describe("exploreSearch", () => {
  it("keeps only the filters in use", () => {
    expect(exploreSearch({ q: "  water borehole ", category: "" })).toBe("q=water+borehole");
    expect(exploreSearch({ q: "", category: "medical" })).toBe("category=medical");
    expect(exploreSearch({ q: "", category: "" })).toBe("");
  });
});

describe("embedSnippets", () => {
  it("gives the loader, the frame and a plain link, with the title escaped", () => {
    const snippets = embedSnippets("https://harambee.example", 42, 'Roof "& more" <b>', "sw");
    expect(snippets.script).toBe(
      '<script src="https://harambee.example/embed.js" data-campaign="42" data-lang="sw" ' +
        'data-title="Roof &quot;&amp; more&quot; &lt;b&gt;" async></script>',
    );
    expect(snippets.iframe).toContain('src="https://harambee.example/embed/campaign/42?lang=sw"');
    expect(snippets.button).toContain('href="https://harambee.example/campaign/42/donate"');
    expect(snippets.button).not.toContain("<b>");
  });
});
