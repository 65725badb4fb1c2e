import type { Sql } from './sql.ts'

/**
 * An organisation's feature selections (migration 0006): the events taken out
 * of the data model and the properties put into it. Nothing stored means
 * every event in and no property.
 */
export interface StoredFeatureSelections {
  excludedEvents: string[]
  includedProperties: Array<{ event: string; property: string }>
}

export async function getFeatureSelections(sql: Sql, orgId: string): Promise<StoredFeatureSelections> {
  const excluded = await sql.query<{ event_name: string }>(
    'SELECT event_name FROM feature_selection_excluded_events WHERE org_id = $1 ORDER BY position',
    [orgId],
  )
  const included = await sql.query<{ event_name: string; property: string }>(
    'SELECT event_name, property FROM feature_selection_included_properties WHERE org_id = $1 ORDER BY position',
    [orgId],
  )
  return {
    excludedEvents: excluded.map((r) => r.event_name),
    includedProperties: included.map((r) => ({ event: r.event_name, property: r.property })),
  }
}

/**
 * Replaces the organisation's selections with these, in one transaction: the
 * dashboard sends the whole selection on every change, so the last one saved
 * is what stands. The organisation's row is locked first, so two saves at once
 * (two tabs, a cluster of api processes) follow one another instead of
 * interleaving their deletes and inserts. Duplicates are kept once, at their
 * first place; properties of an excluded event are the caller's to drop
 * (contracts' normaliseSelections).
 */
export async function saveFeatureSelections(sql: Sql, orgId: string, selections: StoredFeatureSelections): Promise<StoredFeatureSelections> {
  await sql.transaction(async (tx) => {
    await tx.query('SELECT id FROM organisations WHERE id = $1 FOR UPDATE', [orgId])
    await tx.query('DELETE FROM feature_selection_excluded_events WHERE org_id = $1', [orgId])
    await tx.query('DELETE FROM feature_selection_included_properties WHERE org_id = $1', [orgId])
    if (selections.excludedEvents.length > 0) {
      await tx.query(
        `INSERT INTO feature_selection_excluded_events (org_id, event_name, position)
         SELECT $1, e.name, e.position - 1 FROM unnest($2::text[]) WITH ORDINALITY AS e(name, position)
         ON CONFLICT DO NOTHING`,
        [orgId, selections.excludedEvents],
      )
    }
    if (selections.includedProperties.length > 0) {
      await tx.query(
        `INSERT INTO feature_selection_included_properties (org_id, event_name, property, position)
         SELECT $1, p.event_name, p.property, p.position - 1
         FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS p(event_name, property, position)
         ON CONFLICT DO NOTHING`,
        [orgId, selections.includedProperties.map((p) => p.event), selections.includedProperties.map((p) => p.property)],
      )
    }
  })
  return getFeatureSelections(sql, orgId)
}
