import { z } from 'zod'
import { EVENT_NAME_MAX } from './features.ts'

/**
 * The lexicon (spec part 2 §2, §3, §7): the data dictionary of an
 * organisation's events, their properties and the user and company traits,
 * the mapping of what belongs to the data model, and the shared look-ups of
 * traits, properties and their values. The screens' texts are the
 * specification's, word for word; limits, messages and page sizes it leaves
 * open are decided here once, for the server and the dashboard alike.
 */

/** The screens' texts (part 2 §2, §8). */
export const LEXICON_TEXT = {
  heading: 'Lexicon',
  tabs: { events: 'Events', traits: 'Traits', mapping: 'Mapping' },
  name: 'Name',
  volume: '30 day volume',
  traitName: 'Trait name',
  type: 'Type',
  entity: 'Entity',
  inModel: 'In model',
  noEvents: 'No events found',
  noProperties: 'No properties found',
  noTraits: 'No traits found',
  noValues: 'No values found',
  entities: { all: 'All', user: 'User', company: 'Company' },
} as const

/**
 * What a property or trait holds, as the lexicon shows it. ClickHouse infers a
 * type for every value it stores; query/src/lexicon/types.ts maps its names onto
 * these and resolves a path seen with more than one.
 */
export const PROPERTY_TYPES = ['string', 'number', 'boolean', 'date', 'stringArray', 'numberArray', 'booleanArray', 'objectArray'] as const
export type PropertyType = (typeof PROPERTY_TYPES)[number]

/** A trait's entity and the call that sets it (part 2 §2: SegmentIdentify is user, SegmentGroup company). */
export const TRAIT_EVENT_TYPES = { user: 'SegmentIdentify', company: 'SegmentGroup' } as const
export type TraitEntity = keyof typeof TRAIT_EVENT_TYPES
export type TraitEventType = (typeof TRAIT_EVENT_TYPES)[TraitEntity]
export const TRAIT_ENTITIES = Object.keys(TRAIT_EVENT_TYPES) as TraitEntity[]

/** The mapping list's page (part 2 §2 leaves it open): the product's usual 20. Pages start at 1. */
export const MAPPING_PAGE_SIZE = 20
/**
 * A value look-up lists at most this many, most frequent first. More than the
 * pickers show (100, then '100 of N results shown', part 3 §9): typing narrows
 * among all of them, and N is how many there were, up to this.
 */
export const VALUES_MAX = 1000
/** An event's property list stops here: a stream of ever-new keys (ids as keys) must not flood a screen. */
export const PROPERTIES_MAX = 1000
/** A property path or trait name as the look-ups accept it. */
export const PROPERTY_PATH_MAX = 1000
/** One organisation's selections: far more than any data model has, small enough for one statement. */
export const SELECTIONS_MAX = 10_000
export const LEXICON_SEARCH_MAX = EVENT_NAME_MAX

export const LEXICON_ERRORS = {
  selections: 'Feature selections must be given',
  excludedEvents: 'Excluded events must be a list of event names',
  includedProperties: 'Included properties must be a list of event and property pairs',
  eventBlank: 'Event name must not be blank',
  eventTooLong: `Event name must have at most ${EVENT_NAME_MAX} characters`,
  propertyBlank: 'Property must not be blank',
  propertyTooLong: `Property must have at most ${PROPERTY_PATH_MAX} characters`,
  tooManyEvents: `At most ${SELECTIONS_MAX} events can be excluded`,
  tooManyProperties: `At most ${SELECTIONS_MAX} properties can be included`,
  page: 'Page must be a whole number from 1',
  searchTooLong: `Search must have at most ${LEXICON_SEARCH_MAX} characters`,
  audienceType: 'Audience type must be user or company',
  pathTooLong: `Path must have at most ${PROPERTY_PATH_MAX} characters`,
} as const

/** Names are kept as sent (an event is named exactly as it was tracked); only blank ones are refused. */
const eventName = z
  .string({ error: LEXICON_ERRORS.eventBlank })
  .refine((s) => s.trim().length > 0, LEXICON_ERRORS.eventBlank)
  .refine((s) => s.length <= EVENT_NAME_MAX, LEXICON_ERRORS.eventTooLong)

const propertyPath = z
  .string({ error: LEXICON_ERRORS.propertyBlank })
  .refine((s) => s.trim().length > 0, LEXICON_ERRORS.propertyBlank)
  .refine((s) => s.length <= PROPERTY_PATH_MAX, LEXICON_ERRORS.propertyTooLong)

export const includedPropertySchema = z.object({ event: eventName, property: propertyPath })
export type IncludedProperty = z.output<typeof includedPropertySchema>

/**
 * Which events and properties make up the data model (part 2 §3). By default
 * every event is in and no property is: an event is listed in excludedEvents
 * when its 'In model' box is cleared, a property in includedProperties when its
 * box is ticked. Duplicates are kept once; a property of an excluded event is
 * dropped (part 2 §4: switching an event off removes its included properties),
 * so what is stored is always consistent, whoever sends it.
 */
export const featureSelectionsSchema = z
  .object(
    {
      excludedEvents: z.array(eventName, { error: LEXICON_ERRORS.excludedEvents }).max(SELECTIONS_MAX, LEXICON_ERRORS.tooManyEvents),
      includedProperties: z
        .array(includedPropertySchema, { error: LEXICON_ERRORS.includedProperties })
        .max(SELECTIONS_MAX, LEXICON_ERRORS.tooManyProperties),
    },
    { error: LEXICON_ERRORS.selections },
  )
  .transform(normaliseSelections)

export interface FeatureSelections {
  excludedEvents: string[]
  includedProperties: IncludedProperty[]
}

export function normaliseSelections(s: FeatureSelections): FeatureSelections {
  const excluded = [...new Set(s.excludedEvents)]
  const off = new Set(excluded)
  const seen = new Set<string>()
  const includedProperties: IncludedProperty[] = []
  for (const p of s.includedProperties) {
    const key = JSON.stringify([p.event, p.property])
    if (off.has(p.event) || seen.has(key)) continue
    seen.add(key)
    includedProperties.push({ event: p.event, property: p.property })
  }
  return { excludedEvents: excluded, includedProperties }
}

/** POST /api-v2/orgs/{organization}/lexicon/mapping: the whole selection, sent on every change. */
export const saveMappingSchema = z.object({ featureSelections: featureSelectionsSchema }, { error: LEXICON_ERRORS.selections })
export type SaveMapping = z.input<typeof saveMappingSchema>

/** GET .../lexicon/mapping, and the answer of the POST: what is stored now. */
export interface MappingSelections {
  featureSelections: FeatureSelections
}

/** A row of GET /api/orgs/{organization}/lexicon/events (part 2 §3). tagId is stable for a name. */
export interface LexiconEvent {
  tagId: string
  name: string
  /** Events of this name in the last 30 days. */
  volume: number
}
export interface LexiconEventList {
  events: LexiconEvent[]
}

export interface EventProperty {
  name: string
  propertyType: PropertyType
}
/** GET .../lexicon/events/{eventName}/properties, by name. */
export interface LexiconPropertyList {
  properties: EventProperty[]
}

export interface LexiconTrait {
  name: string
  traitType: PropertyType
  eventType: TraitEventType
}
/** GET .../lexicon/traits, by name then entity. */
export interface LexiconTraitList {
  traits: LexiconTrait[]
}

export interface MappingEvent {
  name: string
  properties: EventProperty[]
}
/** GET /api-v2/orgs/{organization}/lexicon/mapping/events?page=&search=: MAPPING_PAGE_SIZE a page, by name. */
export interface MappingEventList {
  events: MappingEvent[]
  totalEvents: number
}

/** GET /api/orgs/{organization}/audiences/traits: trait name to type, per entity. */
export interface AudienceTraits {
  company_traits: Record<string, PropertyType>
  user_traits: Record<string, PropertyType>
}
/** GET .../audiences/traits/{audienceType}/{traitName}/values: most frequent first, at most VALUES_MAX. */
export interface TraitValues {
  values: string[]
}
/** GET /api/orgs/{organization}/events/{eventName}/properties. */
export interface PropertyPathList {
  items: Array<{ path: string }>
}
/** GET .../events/{eventName}/properties/{path}/values: most frequent first, at most VALUES_MAX. */
export interface PropertyValueList {
  items: Array<{ value: string }>
}
