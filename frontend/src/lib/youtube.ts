// YouTube links as the server reads them (youtube_id_from_url in backend/campaigns/validators.py).
const YOUTUBE_ID = /^[\w-]{11}$/;
const YOUTUBE_HOSTS = new Set([
  "youtube.com",
  "www.youtube.com",
  "m.youtube.com",
  "youtube-nocookie.com",
  "www.youtube-nocookie.com",
]);

/**
 * The video id of a YouTube link (watch?v=, youtu.be/, shorts/, embed/) or of a bare id; null for
 * anything else.
 */
export function youtubeVideoId(link: string): string | null {
  const value = link.trim();
  if (YOUTUBE_ID.test(value)) return value;
  let url: URL;
  try {
    url = new URL(value.includes("://") ? value : `https://${value}`);
  } catch {
    return null;
  }
  const host = url.hostname.toLowerCase();
  const segments = url.pathname.split("/").filter(Boolean);
  let candidate = "";
  const [first = "", second = ""] = segments;
  if (host === "youtu.be") candidate = first;
  else if (YOUTUBE_HOSTS.has(host)) {
    if (first === "watch") candidate = url.searchParams.get("v") ?? "";
    else if (["embed", "shorts", "live", "v"].includes(first)) candidate = second;
  }
  return YOUTUBE_ID.test(candidate) ? candidate : null;
}
