import {
  DEFAULT_ACTION,
  OPERATORS,
  matchOperatorOf,
  matchTypeOf,
  opField,
  parseDay,
  readAction,
  readMatch,
  valueKindOf,
  type AudienceAction,
  type AudienceFilters,
  type AudienceMatch,
  type AudienceTraitType,
  type MatchType,
} from '@fl0/contracts/audiences'

/**
 * The builder's filters as the user edits them: the wire shape of part 3 §3
 * with the values as typed, and a key per row for React. completeFilters
 * (contracts) turns them into what is saved and previewed, leaving the
 * unfinished ones out.
 */
export type DraftMatch = AudienceMatch & { key: string }
export type DraftAction = AudienceAction & { key: string }
export interface DraftFilters extends Omit<AudienceFilters, 'matches' | 'actions'> {
  matches: DraftMatch[]
  actions: DraftAction[]
}

let next = 0
export const newKey = () => `row-${++next}`

export function toDraft(f: AudienceFilters): DraftFilters {
  return { ...f, matches: f.matches.map((m) => ({ ...m, key: newKey() })), actions: f.actions.map((a) => ({ ...a, key: newKey() })) }
}

/** What is sent: the rows without their keys (the server reads them as the builder does). */
export function fromDraft(d: DraftFilters): AudienceFilters {
  return { ...d, matches: d.matches.map(({ key: _k, ...m }) => m), actions: d.actions.map(({ key: _k, ...a }) => a) }
}

/**
 * What is previewed and saved (part 3 §4): each row read as the server reads
 * it, the unfinished ones left out. The editor keeps a row from ever holding
 * what cannot be read (the between rule, counts of 0 or more, date inputs), so
 * a row that still cannot be read is left out too rather than sent to fail.
 */
export function usableFilters(d: DraftFilters): AudienceFilters {
  const ok = <T>(r: { ok: T | undefined } | { issues: unknown[] }): T[] => ('ok' in r && r.ok !== undefined ? [r.ok] : [])
  return {
    match_aggregation: d.match_aggregation,
    matches: d.matches.flatMap(({ key: _k, ...m }) => ok(readMatch(m))),
    action_aggregation: 'and',
    actions: d.actions.flatMap(({ key: _k, ...a }) => ok(readAction(a))),
  }
}

export const EMPTY_DRAFT: DraftFilters = { match_aggregation: 'and', matches: [], action_aggregation: 'and', actions: [] }

/** The trait types the look-up may answer that a filter reads differently: lists of numbers or booleans are lists of text. */
export function traitType(lexiconType: string | undefined): AudienceTraitType {
  if (lexiconType === 'number' || lexiconType === 'boolean' || lexiconType === 'date' || lexiconType === 'string') return lexiconType
  if (lexiconType && lexiconType.endsWith('Array')) return 'stringArray'
  return 'string'
}

const valueFields = { value: undefined, value1: undefined, value2: undefined, unit: undefined }

export function newMatch(kind: AudienceMatch['kind']): DraftMatch {
  return kind === 'audience' ? { key: newKey(), kind, audience_op: 'is', audience_id: '' } : { key: newKey(), kind, trait: '', string_op: 'is', value: '' }
}

export const newAction = (): DraftAction => ({ ...DEFAULT_ACTION, date_range: { ...DEFAULT_ACTION.date_range }, key: newKey() })

/** A match with only this type's operator field set to `op`. */
function withOperator(m: DraftMatch, type: MatchType, op: string): DraftMatch {
  const cleared = { ...m } as Record<string, unknown>
  for (const t of Object.keys(OPERATORS)) delete cleared[opField(t as MatchType)]
  cleared[opField(type)] = op
  return cleared as unknown as DraftMatch
}

/** Another kind of match (user, company, audience): a fresh row in the same place. */
export function changeKind(m: DraftMatch, kind: AudienceMatch['kind']): DraftMatch {
  return m.kind === kind ? m : { ...newMatch(kind), key: m.key }
}

/**
 * Another trait. A trait of the same type keeps the operator and the values;
 * of another type, it takes that type's first operator and the values are
 * cleared (they were typed for another kind of value).
 */
export function changeTrait(m: DraftMatch, trait: string, type: AudienceTraitType): DraftMatch {
  const current = matchTypeOf(m)
  if (current === type) return { ...m, trait }
  return { ...withOperator(m, type, OPERATORS[type][0]), ...valueFields, trait }
}

/** Another operator: the values stay if it takes the same kind of value, else they are cleared (part 3 §4). */
export function changeOperator(m: DraftMatch, op: string): DraftMatch {
  const type = matchTypeOf(m)
  if (!type) return m
  const before = valueKindOf(type, matchOperatorOf(m) ?? '')
  const after = valueKindOf(type, op)
  const changed = withOperator(m, type, op)
  return before === after ? changed : { ...changed, ...valueFields, ...(after === 'relative' ? { unit: 'day' as const } : {}) }
}

export const isRangeOperator = (op: string) => op === 'between' || op === 'not_between'

/** Another occurrence operator: between takes two counts, the others one; switching clears the counts. */
export function changeOccurrence(a: DraftAction, op: AudienceAction['occurrence_op']): DraftAction {
  if (isRangeOperator(op) === isRangeOperator(a.occurrence_op)) return { ...a, occurrence_op: op }
  return { ...a, occurrence_op: op, value: isRangeOperator(op) ? undefined : '', value1: undefined, value2: undefined }
}

const blank = (v: unknown) => v === undefined || v === null || String(v).trim() === ''

/**
 * The between rule (part 3 §5): a range is stored only if its second value is
 * greater than its first, or one of them is empty. `read` turns a typed value
 * into something ordered (a number, a day); an unreadable value is not stored.
 */
export function rangeHolds(first: unknown, second: unknown, read: (v: string) => number | string | undefined): boolean {
  if (blank(first) || blank(second)) return true
  const a = read(String(first))
  const b = read(String(second))
  return a !== undefined && b !== undefined && b > a
}

export const readNumber = (v: string) => (v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : undefined)
export const readDay = (v: string) => parseDay(v)

/** Operator labels: the operator's name in words ("greater than or equal to", "not in the last"). */
export const operatorLabel = (op: string) => op.replaceAll('_', ' ')
