import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPglite } from './pglite.ts'
import { migrateMetadata } from './migrate.ts'
import type { Sql } from './sql.ts'
import { createOrganisation } from './organisations.ts'
import { findCallbackOrg, getCallbackSecret, removeCallbackSecret, setCallbackSecret } from './callback-secrets.ts'
import { addCallbackRefusals, callbackRefusalTotals } from './callback-refusals.ts'

/** Migration 0015: an organisation's callback secret (set, rotated, removed) and the callback's refusal counts. */
let sql: Sql
beforeAll(async () => {
  sql = await openPglite()
  await migrateMetadata(sql)
})
afterAll(() => sql?.close())

describe('callback secrets', () => {
  it('names an organisation by id or url code, with its secret once set, rotated and removed', async () => {
    const org = await createOrganisation(sql, 'Acme')
    expect(await findCallbackOrg(sql, org.id)).toEqual({ orgId: org.id, secret: null })
    expect(await findCallbackOrg(sql, org.url_code)).toEqual({ orgId: org.id, secret: null })
    expect(await findCallbackOrg(sql, 'no-such-org')).toBeUndefined()

    const first = await setCallbackSecret(sql, org.id, { now: new Date('2026-03-02T09:00:00Z') })
    expect(first.secret).toMatch(/^[0-9a-f]{64}$/)
    expect(first.created_at.toISOString()).toBe('2026-03-02T09:00:00.000Z')
    expect(await findCallbackOrg(sql, org.url_code)).toEqual({ orgId: org.id, secret: first.secret })

    const second = await setCallbackSecret(sql, org.id)
    expect(second.secret).not.toBe(first.secret)
    expect((await getCallbackSecret(sql, org.id))?.secret).toBe(second.secret)

    expect(await removeCallbackSecret(sql, org.id)).toBe(true)
    expect(await removeCallbackSecret(sql, org.id)).toBe(false)
    expect(await getCallbackSecret(sql, org.id)).toBeUndefined()
    expect(await findCallbackOrg(sql, org.id)).toEqual({ orgId: org.id, secret: null })
  })

  it('prefers an id to another organisation whose url code spells it', async () => {
    const victim = await createOrganisation(sql, 'Victim')
    const copycat = await createOrganisation(sql, victim.id)
    expect(copycat.url_code).toBe(victim.id)
    expect((await findCallbackOrg(sql, victim.id))?.orgId).toBe(victim.id)
  })
})

describe('callback refusals', () => {
  it('adds counts by day and reason, concurrent writers included, and sums them', async () => {
    await addCallbackRefusals(sql, '2026-03-01', { rate_limited: 5, bad_signature: 1 })
    await Promise.all(Array.from({ length: 10 }, () => addCallbackRefusals(sql, '2026-03-02', { rate_limited: 3, invalid_ids: 0 })))
    await addCallbackRefusals(sql, '2026-03-02', {})
    expect(await callbackRefusalTotals(sql)).toEqual({ rate_limited: 35, bad_signature: 1 })
  })
})
