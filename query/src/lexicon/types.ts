import type { PropertyType } from '@fl0/contracts'

/**
 * What the lexicon calls the types ClickHouse infers for JSON values
 * (clickhouse/0002_lexicon.sql stores ClickHouse's names). Decided here, when
 * read, so that a change needs no backfill.
 *
 * - Int*, UInt*, Float*, Decimal: number. Bool: boolean. String (and any other
 *   scalar): string.
 * - Date, Date32, DateTime, DateTime64: date. ClickHouse infers these from ISO
 *   8601 strings ('2026-03-01', '2026-03-01T10:00:00Z'), not from numbers.
 * - Arrays by their elements: stringArray, numberArray, booleanArray; arrays of
 *   objects or of arrays: objectArray; any other (mixed elements, dates, an
 *   empty array, which ClickHouse types as strings): stringArray.
 */
export function lexiconType(clickhouseType: string): PropertyType {
  const t = unwrap(clickhouseType)
  const array = /^Array\((.*)\)$/.exec(t)
  if (array) {
    const element = unwrap(array[1]!)
    if (/^(Array|JSON|Object|Tuple|Map)\b/.test(element)) return 'objectArray'
    const scalar = scalarType(element)
    if (scalar === 'number') return 'numberArray'
    if (scalar === 'boolean') return 'booleanArray'
    return 'stringArray'
  }
  return scalarType(t)
}

function unwrap(t: string): string {
  let s = t.trim()
  for (;;) {
    const m = /^(?:Nullable|LowCardinality)\((.*)\)$/.exec(s)
    if (!m) return s
    s = m[1]!.trim()
  }
}

function scalarType(t: string): 'string' | 'number' | 'boolean' | 'date' {
  if (/^(U?Int\d+|Float\d+|BFloat16|Decimal\d*)\b/.test(t)) return 'number'
  if (t === 'Bool') return 'boolean'
  if (/^(Date|Date32|DateTime|DateTime64)\b/.test(t)) return 'date'
  return 'string'
}

const ARRAY_TYPES: ReadonlySet<PropertyType> = new Set(['stringArray', 'numberArray', 'booleanArray', 'objectArray'])

/**
 * One type for a path seen with several (a property sent as 12 by one client
 * and '12' by another). Observations widen to the type that holds them all:
 * the same type stays; integers and floats are both number already; arrays of
 * different kinds become stringArray; anything else mixed (number and string,
 * date and string, a scalar and an array) becomes string.
 *
 * Widening rather than "latest wins" because the answer must not depend on the
 * order in which events arrive: delivery is at least once, and a cluster's
 * partitions are read in parallel. And a filter written for a string matches a
 * number's text, while one written for a number cannot match 'n/a'.
 */
export function resolveType(types: Iterable<PropertyType>): PropertyType {
  const seen = new Set(types)
  if (seen.size === 0) return 'string'
  if (seen.size === 1) return [...seen][0]!
  if ([...seen].every((t) => ARRAY_TYPES.has(t))) return 'stringArray'
  return 'string'
}

/** The lexicon type of a path from the ClickHouse types stored for it. */
export const typeOfObservations = (clickhouseTypes: readonly string[]): PropertyType => resolveType(clickhouseTypes.map(lexiconType))
