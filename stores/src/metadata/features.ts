import { newId } from './ids.ts'
import type { Sql } from './sql.ts'

/** A feature: a named set of event names of one organisation (migration 0003). */
export interface Feature {
  id: string
  org_id: string
  name: string
  /** Event names in the order they were added. */
  events: string[]
}

export type FeatureSummary = Pick<Feature, 'id' | 'name'>

/** Another feature of the organisation has this name (compared ignoring case). */
export const DUPLICATE_NAME = 'duplicate-name' as const

const isUniqueViolation = (err: unknown) => typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23505'

/** Ordered by name, ignoring case (the features_org_name index). */
export async function listFeatures(sql: Sql, orgId: string): Promise<FeatureSummary[]> {
  return sql.query<FeatureSummary>('SELECT id, name FROM features WHERE org_id = $1 ORDER BY lower(name), id', [orgId])
}

export async function findFeature(sql: Sql, orgId: string, id: string): Promise<Feature | undefined> {
  const [row] = await sql.query<Omit<Feature, 'events'>>('SELECT id, org_id, name FROM features WHERE org_id = $1 AND id = $2', [orgId, id])
  if (!row) return undefined
  const events = await sql.query<{ event_name: string }>('SELECT event_name FROM feature_events WHERE feature_id = $1 ORDER BY position', [id])
  return { ...row, events: events.map((e) => e.event_name) }
}

async function writeEvents(tx: Sql, featureId: string, events: readonly string[]) {
  await tx.query('DELETE FROM feature_events WHERE feature_id = $1', [featureId])
  const names = [...new Set(events)]
  if (names.length === 0) return
  // One statement for the whole list: unnest pairs each name with its position.
  await tx.query(
    `INSERT INTO feature_events (feature_id, event_name, position)
     SELECT $1, e.name, e.position - 1 FROM unnest($2::text[]) WITH ORDINALITY AS e(name, position)`,
    [featureId, names],
  )
}

export async function createFeature(
  sql: Sql,
  input: { orgId: string; name: string; events: readonly string[]; id?: string },
): Promise<Feature | typeof DUPLICATE_NAME> {
  const id = input.id ?? newId()
  try {
    await sql.transaction(async (tx) => {
      await tx.query('INSERT INTO features (id, org_id, name) VALUES ($1, $2, $3)', [id, input.orgId, input.name])
      await writeEvents(tx, id, input.events)
    })
  } catch (err) {
    if (isUniqueViolation(err)) return DUPLICATE_NAME
    throw err
  }
  return { id, org_id: input.orgId, name: input.name, events: [...new Set(input.events)] }
}

/** Changes what is given; undefined when the organisation has no such feature. */
export async function updateFeature(
  sql: Sql,
  orgId: string,
  id: string,
  changes: { name?: string; events?: readonly string[] },
): Promise<Feature | undefined | typeof DUPLICATE_NAME> {
  try {
    const found = await sql.transaction(async (tx) => {
      const rows = await tx.query<{ id: string }>(
        'UPDATE features SET name = COALESCE($3, name), updated_at = now() WHERE org_id = $1 AND id = $2 RETURNING id',
        [orgId, id, changes.name ?? null],
      )
      if (rows.length === 0) return false
      if (changes.events) await writeEvents(tx, id, changes.events)
      return true
    })
    if (!found) return undefined
  } catch (err) {
    if (isUniqueViolation(err)) return DUPLICATE_NAME
    throw err
  }
  return findFeature(sql, orgId, id)
}

/** The deleted feature's id and name; undefined when the organisation has no such feature. Its events go with it (ON DELETE CASCADE). */
export async function deleteFeature(sql: Sql, orgId: string, id: string): Promise<FeatureSummary | undefined> {
  const [row] = await sql.query<FeatureSummary>('DELETE FROM features WHERE org_id = $1 AND id = $2 RETURNING id, name', [orgId, id])
  return row
}
