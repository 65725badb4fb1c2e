import { TRAIT_EVENT_TYPES, type LexiconTrait, type TraitEntity } from '@fl0/contracts'
import type { EventStore } from '@fl0/stores'
import { typeOfObservations } from './types.ts'

/**
 * The organisation's traits from the dictionary: what identify calls said
 * about users and group calls about companies, each name with its resolved
 * type (lexicon/types.ts). By name, then user before company.
 */
export async function lexiconTraits(store: EventStore, p: { orgId: string }): Promise<Array<LexiconTrait & { entity: TraitEntity }>> {
  const result = await store.client.query({
    query: `
      SELECT entity, name, groupUniqArray(value_type) AS types
      FROM lexicon_traits
      WHERE org_id = {org:String}
      GROUP BY entity, name
      ORDER BY name, entity DESC`,
    query_params: { org: p.orgId },
    format: 'JSONEachRow',
  })
  const rows = await result.json<{ entity: TraitEntity; name: string; types: string[] }>()
  return rows.map((r) => ({ name: r.name, traitType: typeOfObservations(r.types), eventType: TRAIT_EVENT_TYPES[r.entity], entity: r.entity }))
}
