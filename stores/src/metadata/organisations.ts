import { newId } from './ids.ts'
import type { Sql } from './sql.ts'

export interface Organisation {
  id: string
  name: string
  url_code: string
}

/**
 * url_code: lowercase letters, digits and hyphens taken from the name, made unique
 * with a numeric suffix ("acme", "acme-2", …). Names with nothing URL-safe in them
 * fall back to "org".
 */
export function urlCodeBase(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/g, '')
  return base || 'org'
}

/**
 * Creates an organisation with a unique url_code. With `adminUserId`, that user
 * becomes its admin in the same transaction, so no organisation is left without one.
 */
export async function createOrganisation(sql: Sql, name: string, options: { adminUserId?: string } = {}): Promise<Organisation> {
  // Two creations of the same name at once can pick the same free code; the
  // unique index refuses the second, which then tries again with the next code.
  for (let attempt = 0; ; attempt++) {
    try {
      return await tryCreate(sql, name, options.adminUserId)
    } catch (error) {
      if (attempt >= 5 || (error as { code?: string }).code !== '23505') throw error
    }
  }
}

async function tryCreate(sql: Sql, name: string, adminUserId: string | undefined): Promise<Organisation> {
  const base = urlCodeBase(name)
  return sql.transaction(async (tx) => {
    const taken = new Set(
      (await tx.query<{ url_code: string }>(
        `SELECT url_code FROM organisations WHERE url_code = $1 OR url_code LIKE $2`,
        [base, `${base}-%`],
      )).map((r) => r.url_code),
    )
    let code = base
    for (let n = 2; taken.has(code); n++) code = `${base}-${n}`
    const org = { id: newId(), name, url_code: code }
    await tx.query('INSERT INTO organisations (id, name, url_code) VALUES ($1, $2, $3)', [org.id, org.name, org.url_code])
    if (adminUserId) {
      await tx.query(`INSERT INTO memberships (org_id, user_id, role) VALUES ($1, $2, 'admin')`, [org.id, adminUserId])
    }
    return org
  })
}

export async function findOrganisationByUrlCode(sql: Sql, urlCode: string): Promise<Organisation | undefined> {
  const rows = await sql.query<Organisation>('SELECT id, name, url_code FROM organisations WHERE url_code = $1', [urlCode])
  return rows[0]
}

export async function listOrganisations(sql: Sql): Promise<Organisation[]> {
  return sql.query<Organisation>('SELECT id, name, url_code FROM organisations ORDER BY name, id')
}
