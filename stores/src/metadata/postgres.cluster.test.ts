import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { metadataContract } from './metadata.contract.ts'
import { scoringContract } from './scoring.contract.ts'
import { migrateMetadata } from './migrate.ts'
import { openPostgres } from './postgres.ts'
import type { Sql } from './sql.ts'

/**
 * The metadata contract on a real PostgreSQL server (scripts/cluster/postgres.sh),
 * then what only a server with many connections can show: concurrent migration
 * and a pool that outlives its connections.
 *
 * Each test gets a database of its own, created here and dropped at the end, so
 * a rerun against the same server (or a user's own DATABASE_URL) starts clean.
 */
const DATABASE_URL = process.env.DATABASE_URL
if (!DATABASE_URL) throw new Error('DATABASE_URL is not set: run `npm run test:cluster`, which starts PostgreSQL')

const created: string[] = []

/** Creates an empty database and returns a URL for it. */
async function freshDatabase(): Promise<string> {
  const name = `fl0_test_${randomUUID().replaceAll('-', '').slice(0, 12)}`
  const admin = new pg.Client({ connectionString: DATABASE_URL })
  await admin.connect()
  try {
    await admin.query(`CREATE DATABASE ${name}`) // name is ours, made of [a-z0-9_]: no parameter possible for identifiers
  } finally {
    await admin.end()
  }
  created.push(name)
  const url = new URL(DATABASE_URL!)
  url.pathname = `/${name}`
  return url.toString()
}

afterAll(async () => {
  const admin = new pg.Client({ connectionString: DATABASE_URL })
  await admin.connect()
  try {
    for (const name of created) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  } finally {
    await admin.end()
  }
})

metadataContract('postgres', async () => openPostgres(await freshDatabase()))
scoringContract('postgres', async () => openPostgres(await freshDatabase()))

describe('postgres adapter on a real server', () => {
  const open: Sql[] = []
  afterAll(async () => {
    await Promise.all(open.map((s) => s.close().catch(() => {})))
  })
  async function openFresh(url?: string): Promise<Sql> {
    const sql = await openPostgres(url ?? (await freshDatabase()))
    open.push(sql)
    return sql
  }

  it('applies each migration once when several roles start at the same moment', async () => {
    const url = await freshDatabase()
    // Separate pools, as separate processes would have: only the advisory lock
    // keeps them from applying the same file twice.
    const roles = await Promise.all([1, 2, 3, 4].map(() => openFresh(url)))
    const results = await Promise.all(roles.map((sql) => migrateMetadata(sql)))
    const applied = results.flat()
    expect(applied.filter((v) => v === '0001_organisations_and_sources')).toHaveLength(1)
    const rows = await roles[0].query<{ version: string }>('SELECT version FROM schema_migrations')
    expect(rows.map((r) => r.version)).toContain('0001_organisations_and_sources')
    expect(new Set(rows.map((r) => r.version)).size).toBe(rows.length)
  })

  it('keeps serving after the server drops its connections', async () => {
    const url = await freshDatabase()
    const sql = await openFresh(url)
    await sql.query('SELECT 1') // leaves an idle connection in the pool
    // What a PostgreSQL restart or a failover does to the pool's idle
    // connections. An idle client that errors must not take the process down.
    const killer = new pg.Client({ connectionString: url })
    await killer.connect()
    const killed = await killer.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    )
    await killer.end()
    expect(killed.rowCount).toBeGreaterThan(0)
    await new Promise((r) => setTimeout(r, 200))
    expect(await sql.query<{ one: number }>('SELECT 1 AS one')).toEqual([{ one: 1 }])
  })

  it('returns a connection whose transaction broke to the pool clean', async () => {
    const sql = await openFresh()
    await sql.exec('CREATE TABLE t (id int PRIMARY KEY)')
    for (let i = 0; i < 3; i++) {
      await expect(
        sql.transaction(async (tx) => {
          await tx.query('INSERT INTO t (id) VALUES ($1)', [1])
          await tx.query('INSERT INTO t (id) VALUES ($1)', [1]) // unique violation aborts the transaction
        }),
      ).rejects.toThrow(/duplicate key/)
    }
    // Were a connection handed back still inside the aborted transaction, this
    // would fail with "current transaction is aborted".
    expect(await sql.query('SELECT count(*)::int AS n FROM t')).toEqual([{ n: 0 }])
    await sql.transaction(async (tx) => {
      await tx.query('INSERT INTO t (id) VALUES ($1)', [2])
      await tx.transaction(async (inner) => inner.query('INSERT INTO t (id) VALUES ($1)', [3]))
    })
    expect(await sql.query('SELECT id FROM t ORDER BY id')).toEqual([{ id: 2 }, { id: 3 }])
  })

  it("fails at open with the server's own message", async () => {
    const url = new URL(DATABASE_URL!)
    url.pathname = '/fl0_no_such_database'
    await expect(openPostgres(url.toString())).rejects.toThrow(/database "fl0_no_such_database" does not exist/)
  })
})
