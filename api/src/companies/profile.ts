import { rows, type Client, type CompanyMembers } from '@fl0/query'
import { mergeTraits, type TraitValue } from './traits.ts'

/**
 * The company's own traits: its group calls' traits merged, newest value of
 * each key first (traits.ts). The newest GROUP_CALLS calls are read: traits
 * repeat on every call, so a few hundred hold every key a client still sends.
 * They are read from trait_calls (clickhouse/0004), where a call repeating an
 * earlier one's traits is kept once, with the later time.
 */
const GROUP_CALLS = 200

const SQL = `
SELECT toJSONString(traits) AS traits
FROM trait_calls
WHERE org_id = {org:String} AND type = 'group' AND has({groups:Array(String)}, group_id)
ORDER BY timestamp DESC
LIMIT {limit:UInt32}`

export async function loadGroupTraits(client: Client, org: string, members: CompanyMembers): Promise<Record<string, TraitValue>> {
  if (members.groupIds.length === 0) return {}
  const found = await rows<{ traits: string }>(client, SQL, { org, groups: members.groupIds, limit: GROUP_CALLS })
  return mergeTraits(found.map((r) => JSON.parse(r.traits) as Record<string, unknown>))
}
