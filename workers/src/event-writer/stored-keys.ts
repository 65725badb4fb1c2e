import xxhash from 'xxhash-wasm'
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
 * so this reads two columns (2.6 s at 21.7 million events on 2 cores, where
 * reading the key-value table took longer), and no call holds chDB
 * long while a dashboard waits. Then by the writer with every key it stores.
 * Until it is filled (`ready`), and while it is filled anew, larger, once it
 * holds more keys than it was sized for, the writer asks about every id, as
 * before. Only in embedded mode: there the writer is the one process that
 * stores events. In a cluster, writers share the topic's partitions and each
 * would miss the others' keys.
 *
 * The hash is XXH64 of the key's UTF-8 bytes (seed 0), computed the same way
 * here (xxhash-wasm) and in ClickHouse (xxHash64(key)): 0.5–0.6 µs a key on
 * the ingest's thread, against 2–3 µs for the MD5 it replaced (node:crypto's
 * one-shot hash, measured side by side under load); ClickHouse too hashes the
 * stored keys faster at start. The filter
 * is split into blocks of 256 bits (Parquet's split block Bloom filter): a
 * key's high half picks its block, its low half one bit in each of the
 * block's eight words, so a key costs one cache miss, not one per bit, and
 * the keys read at start are set in the order of their blocks (setMany).
 * Filling it from 21.7 million stored keys took 19–25 s (21–28 s of CPU, most
 * of it the main thread's, waiting for memory) with seven bits anywhere in
 * the filter; it takes 5 s (7 s of CPU, 2.6 s of it chDB hashing and sending
 * the keys). A partition that gains parts while it is read (events of that
 * month arriving) is read as it was; what the writer stores meanwhile, it
 * adds itself.
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

/** XXH64 of an event's key, as two 32-bit halves (the filter's two base hashes). */
export interface KeyHash {
  lo: number
  hi: number
}

/** Bits per expected key: 0.8 % false positives once the filter holds as many keys as it was sized for (1.5 % at 9.6). */
const BITS_PER_KEY = 11
/** Parquet's split block Bloom filter: eight odd constants, one per 32-bit word of a block, each picking that word's bit from the key's low half. */
const SALT = [0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31].map((s) => s | 0)
const [S0, S1, S2, S3, S4, S5, S6, S7] = SALT as [number, number, number, number, number, number, number, number]
/** Keys set between two turns of the event loop while the filter is filled: about 60 ms of work (the more a step, the fewer misses). */
const STEP = 1 << 20
/** XXH64 (the module's WebAssembly, instantiated once). */
const { h64 } = await xxhash()

/** Past this many stored keys, the filter would cost more memory (1.4 bytes a key) than it saves: not used. */
const MAX_KEYS = 50_000_000

export function createStoredKeys(
  store: EventStore,
  logger: { warn: (o: object, m: string) => void },
  /** The fewest keys the filter is sized for (a million; smaller in tests). */
  minCapacity = 1_000_000,
): StoredKeys {
  /** Eight 32-bit words a block. */
  let words = new Int32Array(0)
  let blocks = 0
  let capacity = 0
  let added = 0
  let ready = false
  /** Keys stored before the filter had its size: added once it has. */
  let early: KeyHash[] = []
  /** Some key could not be added (too many before the filter had its size, or too many stored): never trusted. */
  let gaveUp = false

  /** The first word of a key's block, from its high half (multiply and shift: no modulo, every block as likely). */
  const blockOf = (hi: number) => Math.floor(((hi >>> 0) * blocks) / 4294967296) * 8
  const set = (lo: number, hi: number) => {
    const b = blockOf(hi)
    words[b] |= 1 << (Math.imul(lo, S0) >>> 27)
    words[b + 1] |= 1 << (Math.imul(lo, S1) >>> 27)
    words[b + 2] |= 1 << (Math.imul(lo, S2) >>> 27)
    words[b + 3] |= 1 << (Math.imul(lo, S3) >>> 27)
    words[b + 4] |= 1 << (Math.imul(lo, S4) >>> 27)
    words[b + 5] |= 1 << (Math.imul(lo, S5) >>> 27)
    words[b + 6] |= 1 << (Math.imul(lo, S6) >>> 27)
    words[b + 7] |= 1 << (Math.imul(lo, S7) >>> 27)
  }
  /**
   * Many keys (low and high halves in turn), put first in the order of their
   * blocks (a counting sort on the top 16 bits of their high half, which
   * picks the block), so that the filter is walked from start to end rather
   * than each key waiting for memory in its own order. 20 million keys in
   * steps of a million: 1.1–1.4 s, against 2.7–4.5 s in their own order.
   */
  const setMany = (halves: Uint32Array, sorted: Uint32Array, starts: Uint32Array) => {
    starts.fill(0)
    for (let i = 1; i < halves.length; i += 2) starts[(halves[i]! >>> 16) + 1]!++
    for (let g = 1; g < starts.length; g++) starts[g]! += starts[g - 1]!
    for (let i = 0; i + 1 < halves.length; i += 2) {
      const at = 2 * starts[halves[i + 1]! >>> 16]!++
      sorted[at] = halves[i]!
      sorted[at + 1] = halves[i + 1]!
    }
    for (let i = 0; i + 1 < halves.length; i += 2) set(sorted[i]!, sorted[i + 1]!)
  }
  const test = (lo: number, hi: number) => {
    const b = blockOf(hi)
    for (let i = 0; i < 8; i++) {
      if ((words[b + i]! & (1 << (Math.imul(lo, SALT[i]!) >>> 27))) === 0) return false
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
    blocks = Math.ceil((capacity * BITS_PER_KEY) / 256)
    words = new Int32Array(blocks * 8)
    for (const key of early) set(key.lo, key.hi)
    added = early.length
    early = []
    const sorted = new Uint32Array(2 * STEP)
    const starts = new Uint32Array(65_537)
    // Keys the writer stores from now on are added as they go (add() works from here), so none falls between the pages and them.
    for (const { id } of partitions) {
      const result = await store.client.exec({
        query: `SELECT xxHash64(concat(org_id, '\\0', message_id)) FROM events WHERE _partition_id = {partition:String} FORMAT RowBinary`,
        query_params: { partition: id },
      })
      const chunks: Buffer[] = []
      for await (const chunk of result.stream) chunks.push(chunk as Buffer)
      const data = Buffer.concat(chunks)
      // The keys as 32-bit halves, low then high (little endian, as ClickHouse writes a UInt64 and as hash() reads it).
      const halves = data.byteOffset % 4 === 0 ? new Uint32Array(data.buffer, data.byteOffset, data.length >>> 2) : new Uint32Array(new Uint8Array(data).buffer)
      // In steps, letting the ingest's requests in between: 14 million keys at once held the event loop 3.8 s.
      for (let from = 0; from < halves.length; from += 2 * STEP) {
        setMany(halves.subarray(from, Math.min(halves.length, from + 2 * STEP)), sorted, starts)
        await new Promise((r) => setImmediate(r))
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
      const h = h64(eventKey(orgId, messageId))
      return { lo: Number(BigInt.asUintN(32, h)), hi: Number(h >> 32n) }
    },
    mayHold(key) {
      return !ready || test(key.lo, key.hi)
    },
    add(key) {
      if (blocks === 0) {
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
