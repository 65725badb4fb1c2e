import { createHash } from 'node:crypto'
import type { EventStore } from '@fl0/stores'

/**
 * Which message ids `events` certainly does not hold yet: a Bloom filter of
 * every stored event's key (organisation, NUL, message id), so that the
 * writer asks event_keys only about the ids the filter cannot clear: about 1 %
 * of new ids, and the duplicates. The look-up cost 7–16 µs of chDB's time a key
 * (2,000 keys a query), as much as a third of what storing an event costs.
 *
 * Filled from event_keys when the writer starts (its keys hashed by ClickHouse,
 * 8 bytes each, in pages), and by the writer with every key it stores. Until
 * it is filled (`ready`), and once it holds more keys than it was sized for,
 * the writer asks about every id, as before. Only in embedded mode: there the
 * writer is the one process that stores events. In a cluster, writers share
 * the topic's partitions and each would miss the others' keys.
 *
 * The hash is MD5's first 8 bytes, little endian, computed the same way here
 * (node:crypto) and in ClickHouse (reinterpretAsUInt64(MD5(key))).
 */
export interface StoredKeys {
  /** False when the key is certainly not stored; true when it may be. Only meaningful when `ready`. */
  mayHold(orgId: string, messageId: string): boolean
  add(orgId: string, messageId: string): void
  readonly ready: boolean
  /** Resolves once filled (or given up on); for tests. */
  readonly loaded: Promise<void>
}

/** Bits per expected key for a 1 % false-positive rate, and the hashes per key. */
const BITS_PER_KEY = 9.6
const HASHES = 7
/** Past this many stored keys, the filter would cost more memory (1.2 bytes a key) than it saves: not used. */
const MAX_KEYS = 50_000_000
const PAGES = 16

export function createStoredKeys(store: EventStore, logger: { warn: (o: object, m: string) => void }): StoredKeys {
  let bits = new Uint32Array(0)
  let size = 0
  let capacity = 0
  let added = 0
  let ready = false
  /** Keys stored before the filter had its size: added once it has. */
  let early: Buffer[] = []
  /** Some key could not be added (too many before the filter had its size, or too many stored): never trusted. */
  let gaveUp = false

  const keyHash = (orgId: string, messageId: string) => createHash('md5').update(`${orgId}\u0000${messageId}`).digest()
  const set = (lo: number, hi: number) => {
    for (let i = 0; i < HASHES; i++) {
      const bit = (lo + Math.imul(i, hi)) >>> 0
      const at = bit % size
      bits[at >>> 5] |= 1 << (at & 31)
    }
  }
  const test = (lo: number, hi: number) => {
    for (let i = 0; i < HASHES; i++) {
      const at = ((lo + Math.imul(i, hi)) >>> 0) % size
      if ((bits[at >>> 5] & (1 << (at & 31))) === 0) return false
    }
    return true
  }

  async function load(): Promise<void> {
    const [{ n }] = await (await store.client.query({ query: 'SELECT count() AS n FROM event_keys', format: 'JSONEachRow' })).json<{ n: string }>()
    const stored = Number(n)
    if (stored > MAX_KEYS) {
      gaveUp = true
      early = []
      return
    }
    capacity = Math.max(1_000_000, stored * 2)
    size = Math.ceil((capacity * BITS_PER_KEY) / 32) * 32
    bits = new Uint32Array(size / 32)
    for (const h of early) set(h.readUInt32LE(0), h.readUInt32LE(4))
    added = early.length
    early = []
    // Keys the writer stores from now on are added as they go (add() works from here), so none falls between the pages and them.
    for (let page = 0; page < PAGES; page++) {
      const result = await store.client.exec({
        query: `SELECT reinterpretAsUInt64(MD5(key)) FROM event_keys WHERE cityHash64(key) % ${PAGES} = ${page} FORMAT RowBinary`,
      })
      const chunks: Buffer[] = []
      for await (const chunk of result.stream) chunks.push(chunk as Buffer)
      const data = Buffer.concat(chunks)
      for (let i = 0; i + 8 <= data.length; i += 8) set(data.readUInt32LE(i), data.readUInt32LE(i + 4))
      added += data.length / 8
    }
    ready = !gaveUp && added <= capacity
  }

  const loaded = load().catch((err) => logger.warn({ err }, 'event writer: stored keys not loaded; every id is looked up'))
  return {
    get ready() {
      return ready
    },
    loaded,
    mayHold(orgId, messageId) {
      if (!ready) return true
      const h = keyHash(orgId, messageId)
      return test(h.readUInt32LE(0), h.readUInt32LE(4))
    },
    add(orgId, messageId) {
      const h = keyHash(orgId, messageId)
      if (size === 0) {
        if (gaveUp || early.length >= 1_000_000) gaveUp = true
        else early.push(h)
        return
      }
      set(h.readUInt32LE(0), h.readUInt32LE(4))
      // Fuller than sized for, its false positives grow: stop trusting it (every id is looked up again).
      if (++added > capacity) ready = false
    },
  }
}
