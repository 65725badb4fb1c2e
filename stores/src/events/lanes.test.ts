import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventStore } from './client.ts'
import { openTestEventStore } from './testing.ts'

/**
 * chDB runs one query at a time; a dashboard's query must not wait behind
 * every insert and look-up the workers have queued, only behind the one in hand.
 */
let store: EventStore
beforeAll(async () => {
  store = await openTestEventStore()
})
afterAll(() => store.close())

describe('the event store on chDB', () => {
  it("runs a reader's query ahead of the background calls waiting, after the one in hand", async () => {
    const done: string[] = []
    const call = (client: EventStore['client'], name: string, query: string) =>
      client.query({ query, format: 'JSONEachRow' }).then(async (r) => {
        await r.json()
        done.push(name)
      })
    const background = [1, 2, 3, 4].map((i) => call(store.background.client, `background ${i}`, 'SELECT sleep(0.2)'))
    const reader = call(store.client, 'reader', 'SELECT 1')
    await Promise.all([...background, reader])
    expect(done).toEqual(['background 1', 'reader', 'background 2', 'background 3', 'background 4'])
  })

  it('drops a waiting call whose signal aborts, without running it', async () => {
    const controller = new AbortController()
    const first = store.background.client.query({ query: 'SELECT sleep(0.2)', format: 'JSONEachRow' })
    const aborted = store.client.query({ query: 'SELECT throwIf(1)', format: 'JSONEachRow', abort_signal: controller.signal })
    controller.abort()
    await expect(aborted).rejects.toMatchObject({ name: 'AbortError' })
    await first
  })

  it("has one background lane: the background store's own is itself", () => {
    expect(store.background.background).toBe(store.background)
    expect(store.background.database).toBe(store.database)
  })
})
