import { traitIcon, traitLabel, type CompanyTrait } from '@fl0/contracts'

/**
 * The company's traits as the page lists them (icon, label, value), from the
 * merged traits of its group calls (profile.ts), and its Location: the place
 * most of its people's addresses were seen at (places.ts), unless its group
 * calls name a location of their own (what the client sends comes first, as
 * for a person's location).
 *
 * The left panel shows the firmographics a B2B team looks for first, in this
 * order, when present; the Company details tab shows every trait, these first
 * and then the rest by label. `name` and `domain` are the page's heading, not
 * traits. Nested objects (Segment's `address`) are flattened: address.city is
 * "Address city". The icon is the value's data type (part 1 §3's trait data
 * types); numbers named like dates are not guessed at, ISO dates are.
 */
const KNOWN: ReadonlyArray<readonly [key: string, label: string]> = [
  ['industry', 'Industry'],
  ['employees', 'Employees'],
  ['revenue', 'Revenue'],
  ['country', 'Country'],
  ['location', 'Location'],
  ['plan', 'Plan'],
  ['website', 'Website'],
  ['createdAt', 'Created'],
]
const HEADING_KEYS = new Set(['name', 'domain', 'id'])
/** At most this many traits leave the server (a client could send hundreds). */
export const MAX_TRAITS = 50

export type TraitValue = CompanyTrait['value']

/** Merges group traits, newest first: the newest non-empty value of each key wins (Segment's traits accumulate). */
export function mergeTraits(newestFirst: ReadonlyArray<Record<string, unknown>>): Record<string, TraitValue> {
  const merged: Record<string, TraitValue> = {}
  for (const traits of newestFirst) {
    for (const [key, value] of flatten(traits)) if (!(key in merged)) merged[key] = value
  }
  return merged
}

function* flatten(obj: Record<string, unknown>, prefix = ''): Generator<[string, TraitValue]> {
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}.${k}` : k
    if (v === null || v === undefined || v === '') continue
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') yield [key, v]
    else if (Array.isArray(v)) {
      const items = v.filter((x) => typeof x === 'string' || typeof x === 'number').map(String)
      if (items.length) yield [key, items]
    } else if (typeof v === 'object' && !prefix) yield* flatten(v as Record<string, unknown>, key)
  }
}

/** The merged traits with the address's place as `location` when the group calls name none. */
export function withIpPlace(merged: Record<string, TraitValue>, ipPlace: string | null): Record<string, TraitValue> {
  return ipPlace && !('location' in merged) ? { ...merged, location: ipPlace } : merged
}

/** The panel's traits: the known firmographics present, in order. */
export function panelTraits(merged: Record<string, TraitValue>): CompanyTrait[] {
  return KNOWN.filter(([key]) => key in merged).map(([key, label]) => trait(key, label, merged[key]!))
}

/** Every trait but the heading's: the known ones first, then the rest by label. */
export function allTraits(merged: Record<string, TraitValue>): CompanyTrait[] {
  const known = new Set(KNOWN.map(([k]) => k))
  const rest = Object.keys(merged)
    .filter((k) => !known.has(k) && !HEADING_KEYS.has(k))
    .map((k) => trait(k, traitLabel(k), merged[k]!))
    .sort((a, b) => a.label.localeCompare(b.label))
  return [...panelTraits(merged), ...rest].slice(0, MAX_TRAITS)
}

function trait(key: string, label: string, value: TraitValue): CompanyTrait {
  return { key, icon: traitIcon(value), label, value }
}

