import { msg, plural } from "@lingui/core/macro";
import { i18n } from "@/lib/i18n";

// The server's reminder offsets: 'pledge+7' is 7 days after pledging, 'end-3' 3 days before the
// campaign's end date, 'end-0' the end date itself (backend/notifications/models.py).
const OFFSET = /^pledge\+(\d{1,3})$|^end-(\d{1,3})$/;

/** When a reminder at `offset` goes out, in words; an offset it cannot read is shown as it is. */
export function reminderOffsetLabel(offset: string): string {
  const match = OFFSET.exec(offset);
  if (!match) return offset;
  if (match[1] !== undefined) {
    const days = Number(match[1]);
    return i18n._(msg`${plural(days, { one: "# day after pledging", other: "# days after pledging" })}`);
  }
  const days = Number(match[2]);
  if (days === 0) return i18n._(msg`On the end date`);
  return i18n._(
    msg`${plural(days, { one: "# day before the end date", other: "# days before the end date" })}`,
  );
}
