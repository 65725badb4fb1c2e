import type { Sql } from './sql.ts'

export interface StoredPreferences {
  is_menu_collapsed: boolean
  default_org_url_code: string | null
}

export async function getPreferences(sql: Sql, userId: string): Promise<StoredPreferences> {
  const rows = await sql.query<StoredPreferences>('SELECT is_menu_collapsed, default_org_url_code FROM user_preferences WHERE user_id = $1', [userId])
  return rows[0] ?? { is_menu_collapsed: false, default_org_url_code: null }
}

/** Saves the keys given and keeps the others. */
export async function savePreferences(sql: Sql, userId: string, patch: Partial<StoredPreferences>): Promise<StoredPreferences> {
  const rows = await sql.query<StoredPreferences>(
    `INSERT INTO user_preferences (user_id, is_menu_collapsed, default_org_url_code)
     VALUES ($1, COALESCE($2, false), CASE WHEN $3 THEN $4 ELSE NULL END)
     ON CONFLICT (user_id) DO UPDATE SET
       is_menu_collapsed = COALESCE($2, user_preferences.is_menu_collapsed),
       default_org_url_code = CASE WHEN $3 THEN $4 ELSE user_preferences.default_org_url_code END,
       updated_at = now()
     RETURNING is_menu_collapsed, default_org_url_code`,
    [userId, patch.is_menu_collapsed ?? null, 'default_org_url_code' in patch, patch.default_org_url_code ?? null],
  )
  return rows[0]!
}
