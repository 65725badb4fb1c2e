import { chTime } from '@fl0/contracts'
import type { Client } from '@fl0/query'

/**
 * Whether an organisation requires signed identity callbacks, as the
 * resolution reads it (callback_link_policy, clickhouse/0007_callback_link_scope.sql):
 * its unsigned callback links stop counting for it while it does. Written by
 * the callback-secret calls (routes/callback-secret.ts) before the secret in
 * the metadata store, so that a failure between the two leaves the
 * organisation as its admin asked, and a retry brings them together.
 */
export async function setSignedCallbacksOnly(client: Client, orgId: string, signedOnly: boolean, at: Date): Promise<void> {
  await client.insert({ table: 'callback_link_policy', values: [{ org_id: orgId, signed_only: signedOnly ? 1 : 0, at: chTime(at) }], format: 'JSONEachRow' })
}
