import type { Readable } from 'node:stream'
import { parse } from 'csv-parse'
import { JobFailure, type Progress } from './progress.ts'

/**
 * An uploaded CSV file, row by row, in constant memory (csv-parse streams;
 * the caller pulls, so the upload is read as fast as rows are stored):
 * UTF-8 with or without a byte-order mark, a header line naming the columns
 * (any order, any case; others are ignored), RFC 4180 quoting. A line that
 * cannot be read as CSV (an unclosed quote) is reported with its line number
 * and skipped, and reading goes on.
 */
export interface CsvRow {
  line: number
  values: Record<string, string>
}

export async function* csvRows(input: Readable, progress: Progress, required: readonly string[][]): AsyncGenerator<CsvRow> {
  const parser = input.pipe(
    parse({
      bom: true,
      columns: (header: string[]) => {
        const names = header.map((h) => h.trim().toLowerCase())
        for (const options of required) {
          if (!options.some((o) => names.includes(o))) {
            throw new JobFailure(`The file's header has no ${options.join(' or ')} column (it has: ${names.filter(Boolean).join(', ') || 'none'})`)
          }
        }
        return names
      },
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
      skip_records_with_error: true,
      trim: true,
      on_skip: (err) => {
        if (err) {
          progress.add('read')
          progress.add('skipped')
          progress.error(typeof err.lines === 'number' ? err.lines : null, `not readable as CSV: ${err.message}`)
        }
        return undefined
      },
    }),
  )
  // A header error is thrown by the parser; give it as the job's own failure.
  input.on('error', (e) => parser.destroy(e))
  try {
    for await (const item of parser as AsyncIterable<{ info: { lines: number }; record: Record<string, string | undefined> }>) {
      const values: Record<string, string> = {}
      for (const [k, v] of Object.entries(item.record)) values[k] = v ?? ''
      yield { line: item.info.lines, values }
    }
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause
    if (error instanceof JobFailure) throw error
    if (cause instanceof JobFailure) throw cause
    if ((error as { code?: string }).code === 'CSV_INVALID_COLUMN_MAPPING' || String((error as Error).message).includes('header')) throw new JobFailure((error as Error).message)
    throw error
  }
}

/** Rows in batches: what each import stores at a time. */
export async function* batches<T>(rows: AsyncIterable<T> | Iterable<T>, size: number): AsyncGenerator<T[]> {
  let batch: T[] = []
  for await (const row of rows) {
    batch.push(row)
    if (batch.length >= size) {
      yield batch
      batch = []
    }
  }
  if (batch.length > 0) yield batch
}
