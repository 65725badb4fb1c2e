import { isIPv4 } from 'node:net'
import ipaddr from 'ipaddr.js'
import type { Context } from 'hono'
import { getConnInfo } from '@hono/node-server/conninfo'

/**
 * The client's address: the connection's, unless that connection is a trusted
 * proxy, in which case X-Forwarded-For is read from the right, skipping trusted
 * hops, and the first untrusted address is the client. Untrusted callers cannot
 * forge their address with the header.
 */
export type TrustedProxies = Array<[ipaddr.IPv4 | ipaddr.IPv6, number]>

export function parseTrustedProxies(list: string): TrustedProxies {
  return list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => (entry.includes('/') ? ipaddr.parseCIDR(entry) : exact(entry)))
}

function exact(address: string): [ipaddr.IPv4 | ipaddr.IPv6, number] {
  const ip = ipaddr.parse(address)
  return [ip, ip.kind() === 'ipv4' ? 32 : 128]
}

export function clientIp(remoteAddress: string | undefined, forwardedFor: string | undefined, trusted: TrustedProxies): string {
  const remote = normalizeIp(remoteAddress ?? '')
  if (!remote || trusted.length === 0 || !isTrusted(remote, trusted) || !forwardedFor) return remote
  const hops = forwardedFor.split(',').map((s) => normalizeIp(s.trim())).filter(Boolean)
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!isTrusted(hops[i], trusted)) return hops[i]
  }
  return hops[0] ?? remote
}

/** The connection's own address; undefined where there is no socket (a request made in-process, in tests). */
function remoteAddressOf(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address
  } catch {
    return undefined
  }
}

/** A request's client address: its connection's, or, behind trusted proxies, the one they forwarded. */
export function requestClientIp(c: Context, trusted: TrustedProxies): string {
  return clientIp(remoteAddressOf(c), c.req.header('x-forwarded-for'), trusted)
}

/** Whether a request came over https: directly, or by the word (X-Forwarded-Proto) of a trusted proxy in front of fl0. */
export function requestIsHttps(c: Context, trusted: TrustedProxies): boolean {
  if (new URL(c.req.url).protocol === 'https:') return true
  if (c.req.header('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase() !== 'https') return false
  return fromTrustedProxy(remoteAddressOf(c), trusted)
}

/** True when the connection itself comes from a trusted proxy, whose X-Forwarded-* headers may then be believed. */
export function fromTrustedProxy(remoteAddress: string | undefined, trusted: TrustedProxies): boolean {
  const remote = normalizeIp(remoteAddress ?? '')
  return remote !== '' && isTrusted(remote, trusted)
}

function isTrusted(address: string, trusted: TrustedProxies): boolean {
  if (!ipaddr.isValid(address)) return false
  const ip = ipaddr.process(address)
  return trusted.some(([range, bits]) => {
    const r = range.kind() === 'ipv6' && (range as ipaddr.IPv6).isIPv4MappedAddress() ? (range as ipaddr.IPv6).toIPv4Address() : range
    return ip.kind() === r.kind() && ip.match(r as never, bits)
  })
}

/** An address as fl0 stores it: "::ffff:10.0.0.1" → "10.0.0.1", so IPv4 clients look the same behind dual-stack sockets; "" when it is none. */
export function normalizeIp(address: string): string {
  if (!address) return ''
  // Dotted IPv4 as Node's sockets give it, bare or mapped: already the form ipaddr would print (isIPv4 takes no leading
  // zeros), at a hundredth of its cost; every call to /v1 reads one.
  if (isIPv4(address)) return address
  if (address.startsWith('::ffff:') && isIPv4(address.slice(7))) return address.slice(7)
  return ipaddr.isValid(address) ? ipaddr.process(address).toString() : ''
}
