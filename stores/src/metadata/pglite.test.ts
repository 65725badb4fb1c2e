import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { metadataContract } from './metadata.contract.ts'
import { migrateMetadata } from './migrate.ts'
import { createOrganisation, findOrganisationByUrlCode } from './organisations.ts'
import { openPglite, PGLITE_SHARED_BUFFERS } from './pglite.ts'

metadataContract('pglite', () => openPglite())

describe('PGlite on a data directory', () => {
  it('runs with its small page cache and PGlite\'s own settings, and keeps what was written across a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fl0-pglite-'))
    try {
      const first = await openPglite(dir)
      expect(await first.query<{ shared_buffers: string }>('SHOW shared_buffers')).toEqual([{ shared_buffers: PGLITE_SHARED_BUFFERS }])
      // PGlite's own start parameters are kept beside it (its default search_path is one of them).
      expect(await first.query<{ search_path: string }>('SHOW search_path')).toEqual([{ search_path: 'public' }])
      await migrateMetadata(first)
      const org = await createOrganisation(first, 'Kept Co')
      await first.close()
      const again = await openPglite(dir)
      expect(await again.query<{ shared_buffers: string }>('SHOW shared_buffers')).toEqual([{ shared_buffers: PGLITE_SHARED_BUFFERS }])
      expect(await findOrganisationByUrlCode(again, org.url_code)).toEqual(org)
      await again.close()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
