import { Readable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventStore } from '@fl0/stores'
import { openTestEventStore } from '@fl0/stores/events/testing'
import { importUniversalTable } from './import-universal.ts'
import { Progress } from './progress.ts'

/**
 * The universal import in constant memory, small enough for npm test: 60,000
 * generated rows streamed through it (never held whole), heap growth bounded
 * whatever the input's size; bad rows reported by line and skipped; a second
 * run imports nothing. The million-row run is bench/src/universal-import.ts.
 */
let store: EventStore
beforeAll(async () => {
  store = await openTestEventStore()
})
afterAll(async () => {
  await store?.close()
})

const ROWS = 60_000
function generated(): Readable {
  let i = 0
  return new Readable({
    read() {
      let chunk = i === 0 ? 'up_id,first_name,last_name,company_domain,business_email,employees\n' : ''
      for (let n = 0; n < 1_000 && i < ROWS; n++, i++) {
        chunk += i === 20_000 ? 'not-an-id,Bad,Row,,,\n' : `5x5-${String(i).padStart(32, '0')},First${i},Last${i},co${i % 700}.example,p${i}@co${i % 700}.example,${i % 5000}\n`
      }
      this.push(chunk || null)
    },
  })
}

describe('universal table import', () => {
  it('streams 60,000 rows in bounded memory, skips a bad row by its line, and a second run imports nothing', async () => {
    const lines: string[] = []
    const progress = new Progress((l) => lines.push(l))
    global.gc?.()
    const heapBefore = process.memoryUsage().heapUsed
    let heapPeak = heapBefore
    const timer = setInterval(() => (heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed)), 50)
    await importUniversalTable(store.client, generated(), 'generated.csv', progress, new Date('2026-03-02T09:00:00Z'))
    clearInterval(timer)
    expect(progress.counts).toEqual({ read: ROWS, imported: ROWS - 1, unchanged: 0, skipped: 1 })
    expect(lines).toContain('line 20,002: up_id must be 5x5- followed by 32 digits (skipped)')
    // The input is about 5 MB; what stays in memory is a batch or two, not the file.
    expect(heapPeak - heapBefore).toBeLessThan(120 * 1024 * 1024)

    const again = new Progress()
    await importUniversalTable(store.client, generated(), 'generated.csv', again, new Date('2026-03-03T09:00:00Z'))
    expect(again.counts).toEqual({ read: ROWS, imported: 0, unchanged: ROWS - 1, skipped: 1 })
    const r = await store.client.query({ query: 'SELECT count() AS n, uniqExact(up_id) AS u FROM universal_persons FINAL', format: 'JSONEachRow' })
    expect((await r.json<{ n: string; u: string }>()).map((x) => [Number(x.n), Number(x.u)])).toEqual([[ROWS - 1, ROWS - 1]])
  })
})
