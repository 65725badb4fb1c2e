import { cidrKeys, V4_MAPPED_BASE } from '../identity/ip.ts'

/**
 * A small MaxMind DB (format 2.0) writer, for tests and the demo's partner
 * files: an IPv6 database (IPv4 networks under ::/96, as MaxMind's own
 * writer places them), 24-bit records, records of strings and numbers.
 * Networks must not overlap. Spec: MaxMind DB File Format Specification 2.0.
 * fl0 only reads such files in production (with mmdb-lib); this is here so
 * that the import is tested on a real file that a real reader accepts.
 */
export type MmdbValue = string | number | boolean | MmdbValue[] | { [key: string]: MmdbValue }

export function writeMmdb(networks: Array<{ network: string; record: { [key: string]: MmdbValue } }>, databaseType = 'fl0-test'): Buffer {
  // The trie: node i has [left, right]; a record is a node index, NONE, or a data offset marker.
  const nodes: Array<[number | Leaf, number | Leaf]> = [[NONE, NONE]]
  const data: Buffer[] = []
  let dataSize = 0
  for (const { network, record } of networks) {
    const keys = cidrKeys(network)
    if (!keys) throw new Error(`not a network: ${network}`)
    let { first } = keys
    const size = keys.last - keys.first + 1n
    const bits = 128 - (size.toString(2).length - 1)
    // IPv4 networks live at ::a.b.c.d/96+n in an IPv6 database, not at ::ffff:a.b.c.d.
    if (first >= V4_MAPPED_BASE && keys.last <= 0xffff_ffff_ffffn) first -= V4_MAPPED_BASE
    const encoded = encode(record)
    const leaf: Leaf = { offset: dataSize }
    data.push(encoded)
    dataSize += encoded.length
    let node = 0
    for (let depth = 0; depth < bits; depth++) {
      const bit = Number((first >> BigInt(127 - depth)) & 1n)
      if (depth === bits - 1) {
        nodes[node]![bit] = leaf
        break
      }
      const next = nodes[node]![bit]
      if (typeof next === 'number' && next !== NONE) node = next
      else if (typeof next === 'object') throw new Error(`overlapping network: ${network}`)
      else {
        nodes.push([NONE, NONE])
        nodes[node]![bit] = nodes.length - 1
        node = nodes.length - 1
      }
    }
  }
  const nodeCount = nodes.length
  const tree = Buffer.alloc(nodeCount * 6)
  const value = (r: number | Leaf) => (typeof r === 'object' ? nodeCount + 16 + r.offset : r === NONE ? nodeCount : r)
  nodes.forEach(([l, r], i) => {
    tree.writeUIntBE(value(l), i * 6, 3)
    tree.writeUIntBE(value(r), i * 6 + 3, 3)
  })
  const metadata = encode({
    node_count: { uint32: nodeCount },
    record_size: { uint16: 24 },
    ip_version: { uint16: 6 },
    database_type: databaseType,
    languages: ['en'],
    binary_format_major_version: { uint16: 2 },
    binary_format_minor_version: { uint16: 0 },
    build_epoch: { uint64: 1_770_000_000 },
    description: { en: 'fl0 test database' },
  } as never)
  return Buffer.concat([tree, Buffer.alloc(16), ...data, Buffer.from([0xab, 0xcd, 0xef]), Buffer.from('MaxMind.com'), metadata])
}

const NONE = -1
interface Leaf {
  offset: number
}

function control(type: number, size: number): Buffer {
  const head: number[] = []
  const ext = type > 7
  const typeBits = ext ? 0 : type
  let sizeBits: number
  const tail: number[] = []
  if (size < 29) sizeBits = size
  else if (size < 285) (sizeBits = 29), tail.push(size - 29)
  else if (size < 65821) (sizeBits = 30), tail.push(((size - 285) >> 8) & 255, (size - 285) & 255)
  else (sizeBits = 31), tail.push(((size - 65821) >> 16) & 255, ((size - 65821) >> 8) & 255, (size - 65821) & 255)
  head.push((typeBits << 5) | sizeBits)
  if (ext) head.push(type - 7)
  return Buffer.from([...head, ...tail])
}

function uint(type: number, n: number | bigint): Buffer {
  let v = BigInt(n)
  const bytes: number[] = []
  while (v > 0n) {
    bytes.unshift(Number(v & 255n))
    v >>= 8n
  }
  return Buffer.concat([control(type, bytes.length), Buffer.from(bytes)])
}

function encode(value: MmdbValue | { uint16: number } | { uint32: number } | { uint64: number }): Buffer {
  if (typeof value === 'string') {
    const b = Buffer.from(value, 'utf8')
    return Buffer.concat([control(2, b.length), b])
  }
  if (typeof value === 'boolean') return control(14, value ? 1 : 0)
  if (typeof value === 'number') {
    if (Number.isInteger(value) && value >= 0 && value < 2 ** 32) return uint(6, value)
    const b = Buffer.alloc(8)
    b.writeDoubleBE(value)
    return Buffer.concat([control(3, 8), b])
  }
  if (Array.isArray(value)) return Buffer.concat([control(11, value.length), ...value.map((v) => encode(v))])
  if ('uint16' in value && typeof value.uint16 === 'number') return uint(5, value.uint16)
  if ('uint32' in value && typeof value.uint32 === 'number') return uint(6, value.uint32)
  if ('uint64' in value && typeof value.uint64 === 'number') return uint(9, value.uint64)
  const entries = Object.entries(value as { [k: string]: MmdbValue })
  return Buffer.concat([control(7, entries.length), ...entries.flatMap(([k, v]) => [encode(k), encode(v)])])
}

