/**
 * The demo's only source of randomness: a small seeded PRNG (sfc32, seeded
 * through a 32-bit hash of any list of numbers and strings).
 *
 * Why not one global stream: every entity, day and session draws from its own
 * generator, seeded by its key (seed, "person", 17) or (run, day, session).
 * So adding a person or a day never shifts what the others look like, a day can
 * be planned without replaying the days before it, and a session's events can be
 * made when the stream reaches it, in constant memory.
 */
export type SeedPart = number | string

/** 32-bit FNV-1a over the parts, then avalanche-mixed (murmur3's finaliser). */
export function hashSeed(...parts: SeedPart[]): number {
  let h = 0x811c9dc5
  for (const part of parts) {
    const s = typeof part === 'number' ? `#${part}` : `$${part}`
    for (let i = 0; i < s.length; i++) {
      h ^= s.charCodeAt(i)
      h = Math.imul(h, 0x01000193)
    }
    h ^= 0xff // separator, so ("ab", "c") and ("a", "bc") differ
    h = Math.imul(h, 0x01000193)
  }
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h >>> 0
}

export class Rng {
  private a: number
  private b: number
  private c: number
  private d: number

  constructor(...key: SeedPart[]) {
    this.a = hashSeed(...key, 'a')
    this.b = hashSeed(...key, 'b')
    this.c = hashSeed(...key, 'c')
    this.d = 1
    for (let i = 0; i < 12; i++) this.next() // sfc32's recommended warm-up
  }

  /** Uniform in [0, 1). */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0
    this.d = (this.d + 1) | 0
    this.a = this.b ^ (this.b >>> 9)
    this.b = (this.c + (this.c << 3)) | 0
    this.c = (this.c << 21) | (this.c >>> 11)
    this.c = (this.c + t) | 0
    return (t >>> 0) / 4294967296
  }

  /** Integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1))
  }

  chance(p: number): boolean {
    return this.next() < p
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]
  }

  /** Picks by weight; `weights` need not sum to 1. */
  weighted<T>(items: readonly (readonly [T, number])[]): T {
    let total = 0
    for (const [, w] of items) total += w
    let r = this.next() * total
    for (const [item, w] of items) {
      r -= w
      if (r < 0) return item
    }
    return items[items.length - 1][0]
  }

  /** Standard normal (Box–Muller). */
  normal(): number {
    const u = 1 - this.next()
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next())
  }

  /** Log-normal with the given median and spread (sigma of the log). */
  logNormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal())
  }

  /** Exponential with the given mean. */
  exponential(mean: number): number {
    return -Math.log(1 - this.next()) * mean
  }

  /** Poisson count with mean `lambda` (Knuth below 30, normal approximation above). */
  poisson(lambda: number): number {
    if (lambda <= 0) return 0
    if (lambda > 30) return Math.max(0, Math.round(lambda + Math.sqrt(lambda) * this.normal()))
    const limit = Math.exp(-lambda)
    let k = 0
    let p = this.next()
    while (p > limit) {
      k++
      p *= this.next()
    }
    return k
  }

  /** Number of further steps when each one happens with probability `p` (mean p / (1 − p)). */
  geometric(p: number): number {
    let n = 0
    while (n < 1000 && this.chance(p)) n++
    return n
  }

  hex(length: number): string {
    let s = ''
    while (s.length < length) s += Math.floor(this.next() * 4294967296).toString(16).padStart(8, '0')
    return s.slice(0, length)
  }

  /** A version-4-shaped UUID drawn from this generator. */
  uuid(): string {
    const h = this.hex(32)
    const variant = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16)
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`
  }

  /** Fisher–Yates on a copy. */
  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice()
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1))
      ;[out[i], out[j]] = [out[j], out[i]]
    }
    return out
  }
}
