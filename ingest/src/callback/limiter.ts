import ipaddr from 'ipaddr.js'
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible'

/**
 * The callback's limit per client address: `points` callbacks per `durationS`
 * seconds, in this process's memory (rate-limiter-flexible's RateLimiterMemory,
 * a fixed window per key that starts with the key's first callback). Ingest
 * processes share nothing, so a cluster of N ingest processes behind a load
 * balancer lets an address through up to N times the limit. points 0: no limit.
 *
 * The key is the address as resolved through the trusted proxies
 * (client-ip.ts); an IPv6 address counts as its /64, the block one subscriber
 * is given, so that a host cannot step around its limit by changing the low
 * bits of its address.
 */
export interface CallbackLimiter {
  /** Takes one callback from the address's allowance; false when it is spent. */
  take(address: string): Promise<boolean>
  /** Gives one back: a callback with a valid signature is the partner's, and is not held against the address. */
  giveBack(address: string): Promise<void>
}

export interface CallbackLimit {
  points: number
  durationS: number
}

export function createCallbackLimiter(limit: CallbackLimit): CallbackLimiter {
  if (limit.points <= 0) return { take: async () => true, giveBack: async () => {} }
  const limiter = new RateLimiterMemory({ keyPrefix: 'callback', points: limit.points, duration: limit.durationS })
  return {
    async take(address) {
      try {
        await limiter.consume(limiterKey(address))
        return true
      } catch (err) {
        if (err instanceof RateLimiterRes) return false
        throw err
      }
    },
    async giveBack(address) {
      await limiter.reward(limiterKey(address))
    },
  }
}

/** IPv4 as it is; IPv6 as its /64 ("2001:db8:1:2::/64"); no address at all is one key of its own. */
export function limiterKey(address: string): string {
  if (!address || !ipaddr.isValid(address)) return 'unknown'
  const ip = ipaddr.process(address)
  if (ip.kind() === 'ipv4') return ip.toString()
  const parts = (ip as ipaddr.IPv6).parts.slice(0, 4)
  return `${new ipaddr.IPv6([...parts, 0, 0, 0, 0]).toString()}/64`
}
