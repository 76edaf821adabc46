/** Small pure helpers of the campaign pages: addresses, ids, dates and the explore query string. */

import { parseRouteId } from "@/lib/routeId";

/** Campaign covers that fail to load (or are missing) show this picture instead. */
export const FALLBACK_COVER = "/static/campaigns/covers/default.svg";

/** The share panel's links: each network gets the campaign's public address and its title. */
export function shareLinks(url: string, title: string) {
  const encodedUrl = encodeURIComponent(url);
  return {
    twitter: `https://twitter.com/intent/tweet?text=${encodeURIComponent(title)}&url=${encodedUrl}`,
    facebook: `https://www.facebook.com/sharer/sharer.php?u=${encodedUrl}`,
    whatsapp: `https://wa.me/?text=${encodeURIComponent(`${title} ${url}`)}`,
  };
}

/** The privacy-friendly YouTube player address for a video id. */
export function youtubeEmbedUrl(videoId: string): string {
  return `https://www.youtube-nocookie.com/embed/${encodeURIComponent(videoId)}`;
}

export function qrCodeUrl(campaignId: number): string {
  return `/api/campaigns/${campaignId}/qr.svg`;
}

/** The id of a route like /campaign/42; null when it cannot be a campaign's (the page says not found). */
export const parseCampaignId = parseRouteId;

// Dates are shared by every feature that shows one (lib/dates.ts); re-exported for the campaign pages.
export { formatCalendarDate } from "@/lib/dates";

export type ExploreFilters = { q: string; category: string };

/** The explore page's query string: only the filters in use, so a shared link stays short. */
export function exploreSearch({ q, category }: ExploreFilters): string {
  const params = new URLSearchParams();
  if (q.trim()) params.set("q", q.trim());
  if (category) params.set("category", category);
  return params.toString();
}

const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] ?? character);
}

/** The three ways a church's website shows a campaign (config/embed.py), as HTML to paste: the
 * script that puts the embed in a frame sized to its content, the frame alone (for sites that allow
 * no scripts), and a plain "Give" link to the donate page (for sites that allow neither). ``site`` is
 * Harambee's own address, ``language`` the embed's. */
export function embedSnippets(site: string, campaignId: number, title: string, language: "en" | "sw") {
  const embed = `${site}/embed/campaign/${campaignId}?lang=${language}`;
  const label = escapeHtml(title);
  return {
    script: `<script src="${site}/embed.js" data-campaign="${campaignId}" data-lang="${language}" data-title="${label}" async></script>`,
    iframe: `<iframe src="${embed}" title="${label}" style="width:100%;max-width:480px;height:640px;border:0"></iframe>`,
    button:
      `<a href="${site}/campaign/${campaignId}/donate" target="_blank" rel="noopener" ` +
      `style="display:inline-block;padding:12px 20px;border-radius:8px;background:#047857;color:#fff;` +
      `font:600 16px/1.2 sans-serif;text-decoration:none">${language === "sw" ? "Toa sasa" : "Give now"}: ${label}</a>`,
  };
}
