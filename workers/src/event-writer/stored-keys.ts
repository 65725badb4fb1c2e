import { hash } from 'node:crypto'
import type { EventStore } from '@fl0/stores'
import { eventKey } from './existing-message-ids.ts'

/**
 * Which message ids `events` certainly does not hold yet: a Bloom filter of
 * every stored event's key (organisation, NUL, message id), so that the
 * writer asks event_keys only about the ids the filter cannot clear: about 1 %
 * of new ids, and the duplicates. The look-up cost 7–16 µs of chDB's time a key
 * (2,000 keys a query), as much as a third of what storing an event costs.
 *
 * Filled when the writer starts from `events` itself (every row's key hashed by
 * ClickHouse, 8 bytes each), a month's partition a call: events is columnar,
 * so this reads two columns (1 s at 14 million events on 2 cores, where
 * reading the key-value table took seconds a pass), and no call holds chDB
 * long while a dashboard waits. Then by the writer with every key it stores.
 * Until it is filled (`ready`), and while it is filled anew, larger, once it
 * holds more keys than it was sized for, the writer asks about every id, as
 * before. Only in embedded mode: there the writer is the one process that
 * stores events. In a cluster, writers share
 * the topic's partitions and each would miss the others' keys.
 *
 * The hash is MD5's first 8 bytes, little endian, computed the same way here
 * (node:crypto) and in ClickHouse (reinterpretAsUInt64(MD5(key))). A partition
 * that gains parts while it is read (events of that month arriving) is read as
 * it was; what the writer stores meanwhile, it adds itself.
 */
export interface StoredKeys {
  /** An event's key, hashed: computed once per event, for mayHold and then add. */
  hash(orgId: string, messageId: string): KeyHash
  /** False when the key is certainly not stored; true when it may be (always, until `ready`). */
  mayHold(key: KeyHash): boolean
  add(key: KeyHash): void
  readonly ready: boolean
  /** Resolves once filled (or given up on); for tests. */
  readonly loaded: Promise<void>
}

/** MD5's first 8 bytes of an event's key, as two 32-bit halves (the filter's two base hashes). */
export interface KeyHash {
  lo: number
  hi: number
}

/** Bits per expected key for a 1 % false-positive rate, and the hashes per key. */
const BITS_PER_KEY = 9.6
const HASHES = 7
/** Past this many stored keys, the filter would cost more memory (1.2 bytes a key) than it saves: not used. */
const MAX_KEYS = 50_000_000

export function createStoredKeys(
  store: EventStore,
  logger: { warn: (o: object, m: string) => void },
  /** The fewest keys the filter is sized for (a million; smaller in tests). */
  minCapacity = 1_000_000,
): StoredKeys {
  let bits = new Uint32Array(0)
  let size = 0
  let capacity = 0
  let added = 0
  let ready = false
  /** Keys stored before the filter had its size: added once it has. */
  let early: KeyHash[] = []
  /** Some key could not be added (too many before the filter had its size, or too many stored): never trusted. */
  let gaveUp = false

  /** A key's bits: HASHES of them from its two base hashes (Kirsch and Mitzenmacher's double hashing). */
  const bitOf = (lo: number, hi: number, i: number) => ((lo + Math.imul(i, hi)) >>> 0) % size
  const set = (lo: number, hi: number) => {
    for (let i = 0; i < HASHES; i++) {
      const at = bitOf(lo, hi, i)
      bits[at >>> 5] |= 1 << (at & 31)
    }
  }
  const test = (lo: number, hi: number) => {
    for (let i = 0; i < HASHES; i++) {
      const at = bitOf(lo, hi, i)
      if ((bits[at >>> 5] & (1 << (at & 31))) === 0) return false
    }
    return true
  }

  async function load(): Promise<void> {
    const partitions = await (
      await store.client.query({ query: "SELECT partition_id AS id, sum(rows) AS n FROM system.parts WHERE database = currentDatabase() AND table = 'events' AND active GROUP BY partition_id ORDER BY partition_id", format: 'JSONEachRow' })
    ).json<{ id: string; n: string }>()
    const stored = partitions.reduce((sum, p) => sum + Number(p.n), 0)
    if (stored > MAX_KEYS) {
      gaveUp = true
      early = []
      return
    }
    capacity = Math.max(minCapacity, stored * 2)
    size = Math.ceil((capacity * BITS_PER_KEY) / 32) * 32
    bits = new Uint32Array(size / 32)
    for (const key of early) set(key.lo, key.hi)
    added = early.length
    early = []
    // Keys the writer stores from now on are added as they go (add() works from here), so none falls between the pages and them.
    for (const { id } of partitions) {
      const result = await store.client.exec({
        query: `SELECT reinterpretAsUInt64(MD5(concat(org_id, '\\0', message_id))) FROM events WHERE _partition_id = {partition:String} FORMAT RowBinary`,
        query_params: { partition: id },
      })
      const chunks: Buffer[] = []
      for await (const chunk of result.stream) chunks.push(chunk as Buffer)
      const data = Buffer.concat(chunks)
      // In steps, letting the ingest's requests in between: 14 million keys at once held the event loop 3.8 s.
      for (let i = 0; i + 8 <= data.length; i += 8) {
        set(data.readUInt32LE(i), data.readUInt32LE(i + 4))
        if (i % (8 * 50_000) === 0) await new Promise((r) => setImmediate(r))
      }
      added += data.length / 8
    }
    ready = !gaveUp && added <= capacity
  }

  let loading = false
  const reload = async () => {
    if (loading) return
    loading = true
    try {
      await load()
    } catch (err) {
      logger.warn({ err }, 'event writer: stored keys not loaded; every id is looked up')
    } finally {
      loading = false
    }
  }
  const loaded = reload()
  return {
    get ready() {
      return ready
    },
    loaded,
    hash(orgId, messageId) {
      // The one-shot hash: half the CPU of createHash().update().digest() (0.85 against 1.65 µs a key).
      const digest = hash('md5', eventKey(orgId, messageId), 'buffer')
      return { lo: digest.readUInt32LE(0), hi: digest.readUInt32LE(4) }
    },
    mayHold(key) {
      return !ready || test(key.lo, key.hi)
    },
    add(key) {
      if (size === 0) {
        if (gaveUp || early.length >= 1_000_000) gaveUp = true
        else early.push(key)
        return
      }
      set(key.lo, key.hi)
      // Fuller than sized for, its false positives grow: every id is looked up again while it is
      // filled anew, twice the size (the keys stored meanwhile go into the new one as they come).
      if (++added > capacity && ready) {
        ready = false
        void reload()
      }
    },
  }
}
