import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDemoFl0, type DemoFl0 } from './demoFl0.ts'

describe('the demo-filled fl0 the browser tests start', () => {
  let fl0: DemoFl0
  beforeAll(async () => {
    fl0 = await startDemoFl0()
  })
  afterAll(() => fl0?.stop())

  it('stores every call the ingest accepted, for the demo organisation', async () => {
    const [row] = await fl0.query<{ n: string }>('SELECT count() AS n FROM events WHERE org_id = {org:String}', { org: fl0.organisation.org.id })
    expect(Number(row!.n)).toBe(fl0.stored)
    expect(fl0.stored).toBeGreaterThan(500)
  })
})
