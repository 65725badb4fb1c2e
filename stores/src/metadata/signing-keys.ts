import type { Sql } from './sql.ts'

export interface StoredSigningKey {
  kid: string
  alg: string
  private_jwk: Record<string, unknown>
  public_jwk: Record<string, unknown>
}

/**
 * The key for `purpose`, made by `create` if there is none yet. Several api
 * processes starting at once may each make one; the first insert wins and all
 * of them read it back, so every process signs and verifies with the same key.
 */
export async function getOrCreateSigningKey(sql: Sql, purpose: string, create: () => Promise<StoredSigningKey>): Promise<StoredSigningKey> {
  const read = async () =>
    (await sql.query<StoredSigningKey>('SELECT kid, alg, private_jwk, public_jwk FROM signing_keys WHERE purpose = $1', [purpose]))[0]
  const existing = await read()
  if (existing) return existing
  const key = await create()
  await sql.query(
    `INSERT INTO signing_keys (purpose, kid, alg, private_jwk, public_jwk) VALUES ($1, $2, $3, $4::jsonb, $5::jsonb)
     ON CONFLICT (purpose) DO NOTHING`,
    [purpose, key.kid, key.alg, JSON.stringify(key.private_jwk), JSON.stringify(key.public_jwk)],
  )
  return (await read())!
}
