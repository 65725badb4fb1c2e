import { statfsSync } from 'node:fs'
import { DISK_FULL_RETRY_AFTER_SECONDS } from '@fl0/contracts'

/**
 * The free space left under the embedded data directory, for the ingest to
 * refuse new events before the disk fills.
 *
 * Embedded, the bus, chDB and PGlite share one data directory. The ingest
 * acknowledges what the bus has made durable, and the bus keeps each segment
 * until every consumer has passed it: when events come faster than chDB stores
 * them (a public write key can send any amount), or a consumer stops, the bus
 * grows until the disk is full. A full disk fails every write at once: the
 * bus's, which then refuses every append until a restart; chDB's parts; the
 * metadata store's. So below a floor of free space the ingest answers 429 with
 * Retry-After (disk_full), on which Segment's libraries and fl0's snippet keep
 * the events and send them again, with the same ids, after the wait, and the rest of fl0 keeps working. It accepts events
 * again by itself once the consumers catch up and the bus frees its segments.
 *
 * Asking the filesystem is a statfs call, a few microseconds: the guard asks
 * at most once every `intervalMs` (a second), on the first check after it, and
 * answers from the last answer meanwhile.
 */
export interface DiskSpaceOptions {
  /** Any path on the filesystem to watch (the data directory). */
  dir: string
  /** Below this many free bytes (for an unprivileged process), `check` refuses; 0 turns the guard off. */
  minFreeBytes: number
  intervalMs?: number
  /** Called when the space goes below the floor or back above it (and once at start, when it starts below). */
  onChange?: (state: DiskSpaceState) => void
  /** @internal The filesystem's answer, in bytes free for an unprivileged process (tests give their own to cross the floor). */
  freeBytes?: (dir: string) => number
}

export interface DiskSpaceState {
  low: boolean
  freeBytes: number
  minFreeBytes: number
}

export interface DiskSpaceGuard {
  /** Throws DiskFullError while the free space is below the floor. */
  check(): void
  state(): DiskSpaceState
}

/** What the ingest answers 429 (disk_full) for: there is too little space left to take events durably. */
export class DiskFullError extends Error {
  readonly code = 'DISK_FULL'
  /** How long clients are told to wait before they retry. */
  readonly retryAfterSeconds = DISK_FULL_RETRY_AFTER_SECONDS

  constructor(readonly state: DiskSpaceState) {
    super(`fewer than ${megabytes(state.minFreeBytes)} MB free on the data directory's disk (${megabytes(state.freeBytes)} MB)`)
    this.name = 'DiskFullError'
  }
}

const megabytes = (bytes: number) => Math.floor(bytes / (1024 * 1024))

/** Bytes free on the filesystem of `dir` for an unprivileged process (statfs); throws when it cannot tell. */
export function freeBytesOf(dir: string): number {
  const s = statfsSync(dir)
  return s.bavail * s.bsize
}

export function diskSpaceGuard(options: DiskSpaceOptions): DiskSpaceGuard {
  const { dir, minFreeBytes, intervalMs = 1000, onChange } = options
  const free = options.freeBytes ?? freeBytesOf
  if (minFreeBytes <= 0) {
    return { check() {}, state: () => ({ low: false, freeBytes: Number.POSITIVE_INFINITY, minFreeBytes: 0 }) }
  }
  let current: DiskSpaceState = { low: false, freeBytes: Number.POSITIVE_INFINITY, minFreeBytes }
  let askedAt = 0

  const ask = () => {
    askedAt = performance.now()
    let freeBytes: number
    try {
      freeBytes = free(dir)
    } catch {
      // A filesystem that cannot answer (the directory removed under fl0) leaves the last answer standing.
      return
    }
    const low = freeBytes < minFreeBytes
    const changed = low !== current.low
    current = { low, freeBytes, minFreeBytes }
    if (changed) onChange?.(current)
  }

  // The first answer before any request: a process started on a full disk refuses from its first event.
  ask()

  return {
    check() {
      if (performance.now() - askedAt >= intervalMs) ask()
      if (current.low) throw new DiskFullError(current)
    },
    state: () => current,
  }
}
