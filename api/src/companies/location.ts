/**
 * Where a visitor is, in this order:
 *
 * 1. context.location (Segment's city, region, country), when a client sends
 *    it: "Lyon, France"; city and country when both are there, else whichever
 *    of city, region, country is. The client knows best.
 * 2. The place of the visitor's address (places.ts): DB-IP's city, region
 *    and country stored with each identified visit, the latest visit with a
 *    city. "Cupertino, United States"; the region when no city is known.
 * 3. The city of the browser's time zone (context.timezone, which the snippet
 *    and analytics.js send): America/New_York → "New York". The zone is set by
 *    the operating system from where the machine is, which is a better guide
 *    than the locale: browsers default to en-US the world over, so the
 *    locale's region is not used. It comes last: a zone names the largest
 *    city of a whole region (Europe/Berlin covers all of Germany).
 * 4. None: null (the screen shows nothing).
 *
 * Countries given as ISO 3166-1 codes (DB-IP's, and some clients') are shown
 * by their English name.
 */
export interface ContextLocation {
  city: string
  region: string
  country: string
  tz: string
}

export interface Place {
  city: string
  region: string
  country: string
}

/** Rule 1: what the client sent, or null. */
export function contextPlace(c: Place): string | null {
  const city = c.city.trim()
  const region = c.region.trim()
  const country = countryName(c.country)
  if (city && country) return `${city}, ${country}`
  return city || region || country || null
}

/** Rule 2's text: "Cupertino, United States", "California, United States", "United States"; null when nothing is known. */
export function ipPlaceText(p: Place): string | null {
  const country = countryName(p.country)
  const local = p.city.trim() || p.region.trim()
  if (local && country) return `${local}, ${country}`
  return local || country || null
}

/** The rules in order, given the visitor's address's place (rule 2, already as text) when there is one. */
export function locationOf(c: ContextLocation, ipPlace: string | null = null): string | null {
  return contextPlace(c) ?? ipPlace ?? timeZoneCity(c.tz)
}

/** 'Europe/Berlin' → 'Berlin', 'America/Argentina/Buenos_Aires' → 'Buenos Aires'; zones without a city (UTC, Etc/GMT+2) → null. */
export function timeZoneCity(tz: string): string | null {
  const parts = tz.trim().split('/')
  if (parts.length < 2 || parts[0] === 'Etc') return null
  const city = parts[parts.length - 1]!.replace(/_/g, ' ').trim()
  return city || null
}

const regions = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' })

/** 'US' → 'United States'; a name ('France') as it is; '' and 'ZZ' (ISO's unknown) → ''. */
export function countryName(country: string): string {
  const c = country.trim()
  if (!/^[A-Za-z]{2}$/.test(c)) return c
  if (c.toUpperCase() === 'ZZ') return ''
  try {
    return regions.of(c.toUpperCase()) ?? c
  } catch {
    return c
  }
}
