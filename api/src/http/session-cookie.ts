import type { Context } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'

export const SESSION_COOKIE = 'fl0_session'

/**
 * Secure when the request came over https: directly, or through a proxy that
 * says so (X-Forwarded-Proto), since TLS usually ends at the proxy in front of
 * fl0. An http install (a laptop, localhost) still gets a working cookie.
 */
function isHttps(c: Context): boolean {
  if (new URL(c.req.url).protocol === 'https:') return true
  return c.req.header('x-forwarded-proto')?.split(',')[0]?.trim() === 'https'
}

export function readSessionCookie(c: Context): string | undefined {
  return getCookie(c, SESSION_COOKIE)
}

export function writeSessionCookie(c: Context, secret: string, expiresAt: Date): void {
  setCookie(c, SESSION_COOKIE, secret, {
    path: '/',
    httpOnly: true,
    sameSite: 'Lax',
    secure: isHttps(c),
    expires: expiresAt,
  })
}

export function clearSessionCookie(c: Context): void {
  deleteCookie(c, SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'Lax', secure: isHttps(c) })
}
