import type { ExcludedAudience } from '@fl0/contracts/scoring'
import { traitValueKind } from '@fl0/contracts/trait-filters'

/**
 * The excluded audience as the editor holds it: each filter's value as typed,
 * a range's two ends apart. toWire makes the call's shape of it (part 3 §3):
 * a range as [first, second], a count of days as typed, and for the
 * operators that take no value (is_set and its kind) `true`, since the
 * server keeps only filters that carry a value. A filter without trait,
 * operation or value is left out (part 3 §5).
 */
export interface FilterDraft {
  trait: string
  operation: string
  value: string
  value2: string
}
export interface AudienceDraft {
  filters: FilterDraft[]
  aggregate: 'and' | 'or'
  audienceType: 'user' | 'company'
}

export const EMPTY_AUDIENCE: AudienceDraft = { filters: [], aggregate: 'and', audienceType: 'user' }
export const emptyFilter = (): FilterDraft => ({ trait: '', operation: '', value: '', value2: '' })


type WireFilter = ExcludedAudience['filters'][number]
type WireValue = WireFilter['value']

function wireValue(f: FilterDraft): WireValue | null {
  const kind = traitValueKind(f.operation)
  if (kind === 'none') return true
  const a = f.value.trim()
  if (kind === 'range') return a && f.value2.trim() ? [a, f.value2.trim()] : null
  return a || null
}

export function toWire(draft: AudienceDraft) {
  const filters: Array<{ trait: string; operation: string; value: WireValue }> = []
  for (const f of draft.filters) {
    const value = wireValue(f)
    if (!f.trait.trim() || !f.operation || value === null) continue
    filters.push({ trait: f.trait.trim(), operation: f.operation, value })
  }
  return { filters, aggregate: draft.aggregate, audienceType: draft.audienceType }
}

export function fromWire(audience: ExcludedAudience): AudienceDraft {
  return {
    aggregate: audience.aggregate,
    audienceType: audience.audienceType,
    filters: audience.filters.map((f) => {
      const v = f.value
      const kind = traitValueKind(f.operation)
      if (Array.isArray(v)) return { trait: f.trait, operation: f.operation, value: String(v[0] ?? ''), value2: String(v[1] ?? '') }
      if (kind === 'range' && typeof v === 'string' && v.includes(',')) {
        const [a = '', b = ''] = v.split(',')
        return { trait: f.trait, operation: f.operation, value: a.trim(), value2: b.trim() }
      }
      return { trait: f.trait, operation: f.operation, value: kind === 'none' || v == null ? '' : String(v), value2: '' }
    }),
  }
}
