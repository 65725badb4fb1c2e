import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrateMetadata } from './migrate.ts'
import { createOrganisation, findOrganisationByUrlCode } from './organisations.ts'
import { createSource, deleteSource, findSourceByWriteKey, listSources } from './sources.ts'
import type { Sql } from './sql.ts'

/**
 * The metadata store contract, run against PGlite always and PostgreSQL under
 * `npm run test:cluster`. `openSql` must give an empty database.
 */
export function metadataContract(name: string, openSql: () => Promise<Sql>) {
  describe(`metadata contract: ${name}`, () => {
    let sql: Sql
    beforeAll(async () => {
      sql = await openSql()
    })
    afterAll(async () => {
      await sql?.close()
    })

    it('migrates from empty, and a second run applies nothing', async () => {
      expect(await migrateMetadata(sql)).toContain('0001_organisations_and_sources')
      expect(await migrateMetadata(sql)).toEqual([])
    })

    it('makes unique, URL-safe url codes from organisation names', async () => {
      const a = await createOrganisation(sql, 'Acme Corp')
      const b = await createOrganisation(sql, 'acme corp')
      const c = await createOrganisation(sql, '   ')
      expect(a.url_code).toBe('acme-corp')
      expect(b.url_code).toBe('acme-corp-2')
      expect(c.url_code).toMatch(/^org(-\d+)?$/)
      expect(await findOrganisationByUrlCode(sql, 'acme-corp-2')).toEqual(b)
    })

    it('gives concurrent creations of one name distinct url codes', async () => {
      const orgs = await Promise.all(Array.from({ length: 5 }, () => createOrganisation(sql, 'Race Co')))
      expect(new Set(orgs.map((o) => o.url_code)).size).toBe(5)
      expect(orgs.map((o) => o.url_code).sort()).toEqual(['race-co', 'race-co-2', 'race-co-3', 'race-co-4', 'race-co-5'])
    })

    it('finds a source by its write key until it is deleted', async () => {
      const org = await createOrganisation(sql, 'Keys')
      const s = await createSource(sql, { orgId: org.id, type: 'snippet', name: 'js-snippet', url: 'example.com' })
      expect(s.write_key).toMatch(/^[A-Za-z0-9_-]{32}$/)
      expect(await findSourceByWriteKey(sql, s.write_key)).toEqual(s)
      expect((await listSources(sql, org.id)).map((x) => x.id)).toEqual([s.id])
      const other = await createOrganisation(sql, 'Other')
      expect(await deleteSource(sql, other.id, s.id)).toBeUndefined()
      expect(await deleteSource(sql, org.id, s.id)).toEqual(s)
      expect(await findSourceByWriteKey(sql, s.write_key)).toBeUndefined()
    })

    it('rolls a failed transaction back', async () => {
      const org = await createOrganisation(sql, 'Tx')
      await expect(
        sql.transaction(async (tx) => {
          await createSource(tx, { orgId: org.id, type: 'segment', name: 'segment' })
          throw new Error('boom')
        }),
      ).rejects.toThrow('boom')
      expect(await listSources(sql, org.id)).toEqual([])
    })

    it('refuses a source of an unknown type', async () => {
      const org = await createOrganisation(sql, 'Types')
      await expect(createSource(sql, { orgId: org.id, type: 'ftp' as never, name: 'x' })).rejects.toThrow()
    })
  })
}
