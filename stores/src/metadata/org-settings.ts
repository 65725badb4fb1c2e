import type { Sql } from './sql.ts'

export interface StoredOrgSettings {
  timezone: string
  company_paths: string[]
}

export const ORG_SETTINGS_DEFAULTS: StoredOrgSettings = { timezone: 'UTC', company_paths: [] }

export async function getOrgSettings(sql: Sql, orgId: string): Promise<StoredOrgSettings> {
  const rows = await sql.query<StoredOrgSettings>('SELECT timezone, company_paths FROM org_settings WHERE org_id = $1', [orgId])
  return rows[0] ?? { ...ORG_SETTINGS_DEFAULTS, company_paths: [] }
}

export async function saveOrgSettings(sql: Sql, orgId: string, settings: StoredOrgSettings): Promise<StoredOrgSettings> {
  const rows = await sql.query<StoredOrgSettings>(
    `INSERT INTO org_settings (org_id, timezone, company_paths, updated_at) VALUES ($1, $2, $3::jsonb, now())
     ON CONFLICT (org_id) DO UPDATE SET timezone = EXCLUDED.timezone, company_paths = EXCLUDED.company_paths, updated_at = now()
     RETURNING timezone, company_paths`,
    [orgId, settings.timezone, JSON.stringify(settings.company_paths)],
  )
  return rows[0]!
}
