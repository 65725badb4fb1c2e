/**
 * Where a visitor is, from what their events' context carries. fl0 has no IP
 * geolocation yet (the identification issue brings IP data), so:
 *
 * 1. context.location (Segment's city, region, country), when a client sends
 *    it: "Lyon, France"; city and country when both are there, else whichever
 *    of city, region, country is.
 * 2. Otherwise the city of the browser's time zone (context.timezone, which
 *    the snippet and analytics.js send): America/New_York → "New York". The
 *    zone is set by the operating system from where the machine is, which is
 *    a better guide than the locale: browsers default to en-US the world over,
 *    so the locale's region is not used.
 * 3. Neither: null (the screen shows nothing).
 */
export interface ContextLocation {
  city: string
  region: string
  country: string
  tz: string
}

export function locationOf(c: ContextLocation): string | null {
  const city = c.city.trim()
  const region = c.region.trim()
  const country = c.country.trim()
  if (city && country) return `${city}, ${country}`
  if (city || region || country) return city || region || country
  return timeZoneCity(c.tz)
}

/** 'Europe/Berlin' → 'Berlin', 'America/Argentina/Buenos_Aires' → 'Buenos Aires'; zones without a city (UTC, Etc/GMT+2) → null. */
export function timeZoneCity(tz: string): string | null {
  const parts = tz.trim().split('/')
  if (parts.length < 2 || parts[0] === 'Etc') return null
  const city = parts[parts.length - 1]!.replace(/_/g, ' ').trim()
  return city || null
}
