import type { JobError } from '@fl0/contracts'

/**
 * What a running job tells: its counts (read, inserted, unchanged, skipped…),
 * its first errors, and progress lines (the streamed import's log). The job
 * runner (runner.ts) saves it to the job's row as it goes.
 */
export const MAX_JOB_ERRORS = 100
/** Bad lines beyond this many are counted, not logged one by one. */
export const MAX_ERROR_LINES_LOGGED = 1_000

export class Progress {
  readonly counts: Record<string, number> = {}
  readonly errors: JobError[] = []
  private errorLines = 0
  private pending: string[] = []
  constructor(private readonly onLine?: (line: string) => void) {}

  add(name: string, n = 1): void {
    this.counts[name] = (this.counts[name] ?? 0) + n
  }

  /** A bad line (or record): kept among the first errors, logged, and counted as skipped by the caller. */
  error(line: number | null, message: string): void {
    if (this.errors.length < MAX_JOB_ERRORS) this.errors.push({ line, message })
    if (++this.errorLines <= MAX_ERROR_LINES_LOGGED) this.log(`${line === null ? '' : `line ${fmt(line)}: `}${message} (skipped)`)
  }

  log(line: string): void {
    this.pending.push(line)
    this.onLine?.(line)
  }

  /** The lines logged since the last call (the runner appends them to the job's row). */
  drain(): string {
    const text = this.pending.map((l) => `${l}\n`).join('')
    this.pending = []
    return text
  }
}

/** A job that cannot go on: its message is the job's, shown to the admin as it is. */
export class JobFailure extends Error {}

const number = new Intl.NumberFormat('en-US')
export const fmt = (n: number): string => number.format(n)
