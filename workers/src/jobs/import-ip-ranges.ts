import type { Readable } from 'node:stream'
import { Reader } from 'mmdb-lib'
import { chTime } from '@fl0/contracts'
import { addressKey, cidrKeys, keyToText, MAX_ADDRESS, V4_MAPPED_BASE } from '../identity/ip.ts'
import { RANGE_KINDS, type RangeKind } from '../identity/ranges.ts'
import { normalizeDomain } from '@fl0/query'
import { batches, csvRows } from './csv.ts'
import { fmt, JobFailure, type Progress } from './progress.ts'
import { chunks, insert, select, type Client } from './store.ts'

/**
 * IP to company (docs/identification.md): ranges with a company name, domain
 * and kind, from a CSV file or a MaxMind-format database (.mmdb). A range is
 * its two ends: one stored with the same name, domain and kind is left as it
 * is, another replaces it (the newer import wins a tie in the matcher too).
 *
 * .mmdb files are read with mmdb-lib, the reader behind the `maxmind` npm
 * package (MIT, maintained, no native code, reads every MaxMind DB format
 * version 2 file). It looks addresses up but cannot list a database's
 * networks, so the whole address space is walked with its public
 * getWithPrefixLength: each look-up answers the network (or empty block) the
 * address falls in, and the walk jumps to the address after it. That visits
 * each network and each gap once: a few million look-ups for the largest
 * commercial databases.
 */
export interface RangeRow {
  first_ip: string
  last_ip: string
  company_name: string
  domain: string
  kind: RangeKind
  source: 'csv' | 'mmdb'
}

const rangeKey = (first: bigint, last: bigint) => `${first}-${last}`

export function rangeOf(v: Record<string, string>): RangeRow | string {
  let keys: { first: bigint; last: bigint } | undefined
  const network = (v.network ?? v.cidr ?? '').trim()
  if (network) {
    keys = cidrKeys(network)
    if (!keys) return `network ${network} is not a CIDR block`
  } else {
    const first = addressKey(v.first_ip ?? '')
    const last = addressKey(v.last_ip ?? '')
    if (first === undefined || last === undefined) return 'a range needs a network, or a first_ip and a last_ip that are IP addresses'
    if (first > last) return 'first_ip must not come after last_ip'
    keys = { first, last }
  }
  const name = (v.company_name ?? '').trim()
  if (!name) return 'company_name must be given'
  const domainText = (v.domain ?? '').trim()
  const domain = domainText ? normalizeDomain(domainText) : ''
  if (domain === undefined) return `domain ${domainText} is not a domain`
  const kind = ((v.kind ?? '').trim().toLowerCase() || 'company') as RangeKind
  if (!RANGE_KINDS.includes(kind)) return `kind must be one of ${RANGE_KINDS.join(', ')}`
  return { first_ip: keyToText(keys.first), last_ip: keyToText(keys.last), company_name: name.slice(0, 500), domain, kind, source: 'csv' }
}

export async function importIpToCompany(client: Client, input: Readable, fileName: string, progress: Progress, now: Date): Promise<string> {
  for (const name of ['read', 'inserted', 'unchanged', 'skipped']) progress.add(name, 0)
  const { head, rest } = await peek(input)
  const isMmdb = /\.mmdb$/i.test(fileName) || head.subarray(0, 4096).includes(0)
  const rows = isMmdb ? mmdbRows(Buffer.concat([head, await readAll(rest, 2 * 1024 * 1024 * 1024)]), progress) : csvRanges(rest, head, progress)
  for await (const batch of batches(rows, 5_000)) await storeRanges(client, batch, progress, chTime(now))
  if (progress.counts.read === 0) throw new JobFailure(`${fileName} has no ranges`)
  const c = progress.counts
  return `Imported ${fmt(c.inserted!)} IP ranges from ${fileName} (${fmt(c.unchanged!)} unchanged, ${fmt(c.skipped!)} skipped)`
}

async function* csvRanges(rest: Readable, head: Buffer, progress: Progress): AsyncGenerator<RangeRow> {
  const { Readable: R } = await import('node:stream')
  const whole = R.from((async function* () {
    if (head.length) yield head
    for await (const chunk of rest) yield chunk as Buffer
  })())
  for await (const row of csvRows(whole, progress, [['network', 'cidr', 'first_ip'], ['company_name']])) {
    progress.add('read')
    const range = rangeOf(row.values)
    if (typeof range === 'string') {
      progress.add('skipped')
      progress.error(row.line, range)
    } else yield range
  }
}

async function storeRanges(client: Client, batch: RangeRow[], progress: Progress, importedAt: string): Promise<void> {
  const byKey = new Map<string, RangeRow>()
  for (const r of batch) {
    const key = rangeKey(addressKey(r.first_ip)!, addressKey(r.last_ip)!)
    if (byKey.has(key)) progress.add('unchanged')
    byKey.set(key, r)
  }
  const stored = new Map<string, string>()
  for (const firsts of chunks([...new Set(batch.map((r) => r.first_ip))])) {
    const rows = await select<{ f: string; l: string; company_name: string; domain: string; kind: string }>(
      client,
      `SELECT toString(first_ip) AS f, toString(last_ip) AS l, company_name, domain, kind
       FROM ip_to_company FINAL WHERE first_ip IN (SELECT arrayJoin({firsts:Array(String)})::IPv6)`,
      { firsts },
    )
    for (const r of rows) stored.set(rangeKey(addressKey(r.f)!, addressKey(r.l)!), `${r.company_name}\n${r.domain}\n${r.kind}`)
  }
  const fresh = [...byKey].filter(([key, r]) => stored.get(key) !== `${r.company_name}\n${r.domain}\n${r.kind}`).map(([, r]) => ({ ...r, imported_at: importedAt }))
  await insert(client, 'ip_to_company', fresh)
  progress.add('inserted', fresh.length)
  progress.add('unchanged', byKey.size - fresh.length)
}

/** The first bytes of a stream (to tell a database from a CSV file) and the stream of the rest. */
async function peek(input: Readable): Promise<{ head: Buffer; rest: Readable }> {
  const iterator = input[Symbol.asyncIterator]()
  const first = await iterator.next()
  const head = first.done ? Buffer.alloc(0) : (first.value as Buffer)
  const { Readable: R } = await import('node:stream')
  const rest = R.from({ [Symbol.asyncIterator]: () => iterator })
  return { head, rest }
}

// MaxMind databases ---------------------------------------------------------

type MmdbRecord = Record<string, unknown>

const HOSTING = new Set(['hosting', 'content_delivery'])
const ISP = new Set(['residential', 'consumer_privacy'])

/** What a MaxMind record says, the first field present winning (docs/identification.md lists them). */
export function mmdbRange(record: MmdbRecord): Pick<RangeRow, 'company_name' | 'domain' | 'kind'> | undefined {
  const traits = (typeof record.traits === 'object' && record.traits !== null ? record.traits : {}) as MmdbRecord
  const text = (...values: unknown[]) => {
    for (const v of values) if (typeof v === 'string' && v.trim()) return v.trim()
    return ''
  }
  const name = text(record.organization, traits.organization, record.company_name, record.isp, traits.isp, record.autonomous_system_organization, traits.autonomous_system_organization)
  if (!name) return undefined
  const domain = normalizeDomain(text(record.domain, traits.domain)) ?? ''
  const own = text(record.kind).toLowerCase()
  const userType = text(record.user_type, traits.user_type).toLowerCase()
  const connection = text(record.connection_type, traits.connection_type)
  let kind: RangeKind
  if ((RANGE_KINDS as readonly string[]).includes(own)) kind = own as RangeKind
  else if (userType) kind = HOSTING.has(userType) ? 'hosting' : userType === 'cellular' ? 'mobile' : ISP.has(userType) ? 'isp' : 'company'
  else if (connection) kind = connection === 'Cellular' ? 'mobile' : connection === 'Corporate' ? 'company' : 'isp'
  else kind = domain ? 'company' : 'isp'
  return { company_name: name.slice(0, 500), domain, kind }
}

/** Aliases of the IPv4 tree in an IPv6 database (IPv4-mapped, Teredo, 6to4): walked as IPv4 instead. */
const IPV6_SKIP: Array<[bigint, bigint]> = [
  [0n, 0xffff_ffffn],
  [V4_MAPPED_BASE, 0xffff_ffff_ffffn],
  [0x2001_0000n << 96n, (0x2001_0000n << 96n) | ((1n << 96n) - 1n)],
  [0x2002n << 112n, (0x2002n << 112n) | ((1n << 112n) - 1n)],
]

function* mmdbRows(db: Buffer, progress: Progress): Generator<RangeRow> {
  let reader: Reader<MmdbRecord>
  try {
    reader = new Reader<MmdbRecord>(db)
  } catch (error) {
    throw new JobFailure(`The file is neither a CSV file nor a MaxMind database: ${(error as Error).message}`)
  }
  const emit = function* (first: bigint, last: bigint, record: MmdbRecord | null): Generator<RangeRow> {
    if (!record) return
    progress.add('read')
    const r = mmdbRange(record)
    if (!r) {
      progress.add('skipped')
      progress.error(null, `network ${keyToText(first)}–${keyToText(last)} names no organisation`)
      return
    }
    yield { first_ip: keyToText(first), last_ip: keyToText(last), ...r, source: 'mmdb' }
  }
  // IPv4, in its own 32-bit space.
  for (let at = 0; at <= 0xffff_ffff; ) {
    const [record, prefix] = reader.getWithPrefixLength(`${at >>> 24}.${(at >>> 16) & 255}.${(at >>> 8) & 255}.${at & 255}`)
    const size = 2 ** (32 - prefix)
    const network = at - (at % size)
    yield* emit(V4_MAPPED_BASE + BigInt(network), V4_MAPPED_BASE + BigInt(network + size - 1), record)
    at = network + size
  }
  if (reader.metadata.ipVersion !== 6) return
  for (let at = 0n; at <= MAX_ADDRESS; ) {
    const skip = IPV6_SKIP.find(([a, b]) => at >= a && at <= b)
    if (skip) {
      at = skip[1] + 1n
      continue
    }
    const [record, prefix] = reader.getWithPrefixLength(keyToText(at, true))
    const size = 1n << BigInt(128 - prefix)
    const network = at - (at % size)
    // A block reaching into a skipped alias is cut at it: the alias is the IPv4 tree, already read.
    let last = network + size - 1n
    for (const [a] of IPV6_SKIP) if (a > at && a <= last) last = a - 1n
    yield* emit(network < at ? at : network, last, record)
    at = last + 1n
  }
}

/** The whole of a stream, for the formats that cannot be read in pieces (a MaxMind database is a search tree). */
export async function readAll(stream: Readable, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of stream) {
    size += (chunk as Buffer).length
    if (size > maxBytes) throw new Error(`the file is larger than ${Math.round(maxBytes / 1024 / 1024)} MB`)
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks)
}
