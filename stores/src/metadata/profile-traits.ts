import type { Sql } from './sql.ts'

/**
 * Which traits the profiles' Traits cards show, per organisation and profile
 * type (migration 0008). Only choices made are stored; the api lays them over
 * the defaults (contracts' DEFAULT_VISIBLE_TRAITS).
 */
export type ProfileType = 'company' | 'user'

export interface StoredProfileTrait {
  name: string
  hidden: boolean
}

/** The organisation's choices for one profile type, by name. */
export async function listProfileTraits(sql: Sql, orgId: string, type: ProfileType): Promise<StoredProfileTrait[]> {
  return sql.query<StoredProfileTrait>('SELECT name, hidden FROM profile_traits WHERE org_id = $1 AND profile_type = $2 ORDER BY name', [orgId, type])
}

/**
 * Records one choice (the last one made stands). `max` caps the rows an
 * organisation keeps per type: a new name past it is refused ('too-many'),
 * a name already chosen can always change.
 */
export async function saveProfileTrait(
  sql: Sql,
  orgId: string,
  type: ProfileType,
  trait: StoredProfileTrait,
  max: number,
): Promise<StoredProfileTrait[] | 'too-many'> {
  const saved = await sql.transaction(async (tx) => {
    // The organisation's row is locked first, so two new names at once cannot both pass the cap.
    await tx.query('SELECT id FROM organisations WHERE id = $1 FOR UPDATE', [orgId])
    const [count] = await tx.query<{ n: number; known: boolean }>(
      'SELECT count(*)::int AS n, bool_or(name = $3) AS known FROM profile_traits WHERE org_id = $1 AND profile_type = $2',
      [orgId, type, trait.name],
    )
    if (!count?.known && (count?.n ?? 0) >= max) return false
    await tx.query(
      `INSERT INTO profile_traits (org_id, profile_type, name, hidden) VALUES ($1, $2, $3, $4)
       ON CONFLICT (org_id, profile_type, name) DO UPDATE SET hidden = EXCLUDED.hidden, updated_at = now()`,
      [orgId, type, trait.name, trait.hidden],
    )
    return true
  })
  return saved ? listProfileTraits(sql, orgId, type) : 'too-many'
}
