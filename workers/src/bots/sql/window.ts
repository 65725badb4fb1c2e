/**
 * The events a scan reads: those received in ({from}, {until}], the
 * watermark's window (received_at: when fl0 took the call, so a client's
 * clock cannot hide a call from it). `received_at` is in no index of
 * `events`; {floor} bounds `timestamp` too, which prunes the month partitions
 * before it, so a scan reads this month's (and at a month's start the last
 * one's) received_at column rather than every event's. A call stamped before
 * {floor} (scan.ts: a day before the window), an import of history, is not
 * scanned.
 */
export const WINDOW_SQL = `received_at > {from:DateTime64(3, 'UTC')} AND received_at <= {until:DateTime64(3, 'UTC')} AND timestamp >= {floor:DateTime64(3, 'UTC')}`
