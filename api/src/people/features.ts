import { findFeature, listFeatures, type Feature, type Sql } from '@fl0/stores'

/**
 * Features (stored sets of event names, stores/src/metadata/features.ts) as
 * the profiles count them: a feature is used by each track call of one of its
 * events. Nothing else counts: a page view is not a feature's use.
 */
export async function loadFeatures(sql: Sql, orgId: string): Promise<Feature[]> {
  const list = await listFeatures(sql, orgId)
  const found = await Promise.all(list.map((f) => findFeature(sql, orgId, f.id)))
  return found.filter((f): f is Feature => f !== undefined)
}

/** Every event name some feature names: the events the usage queries need to read. */
export const featureEvents = (features: Feature[]) => [...new Set(features.flatMap((f) => f.events))]

/** Sorted copies for the top and bottom lists: ties by name, so the order never depends on the query's. */
export function topAndBottom<T extends { featureName: string }>(items: T[], by: (a: T, b: T) => number, size: number) {
  const byName = (a: T, b: T) => a.featureName.localeCompare(b.featureName)
  const top = [...items].sort((a, b) => by(b, a) || byName(a, b))
  const bottom = [...items].sort((a, b) => by(a, b) || byName(a, b))
  return { top: top.slice(0, size), bottom: bottom.slice(0, size) }
}
