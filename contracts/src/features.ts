import { z } from 'zod'

/**
 * Features (spec part 1 §2, §3, §5, §7): a named set of event names, such as
 * "Checkout" = ['Cart Viewed', 'Order Completed']. The name's messages are the
 * specification's, word for word; the rest (the events' limits, duplicate
 * names, not found) the specification leaves to fl0 and are decided here once,
 * for the server and the dashboard alike.
 */
export const FEATURE_NAME_MAX = 49
/** An event name as the ingest accepts it (contracts/ingest.ts: trimmed, 1 to 200 characters). */
export const EVENT_NAME_MAX = 200
/** Enough for any real feature; keeps one save from writing thousands of rows. */
export const FEATURE_EVENTS_MAX = 100

export const FEATURE_ERRORS = {
  nameRequired: 'Name must be provided',
  nameTooLong: 'Name must have less than 50 characters',
  duplicateName: 'A feature with this name already exists',
  eventsList: 'Events must be a list of event names',
  eventBlank: 'Event name must not be blank',
  eventTooLong: `Event name must have at most ${EVENT_NAME_MAX} characters`,
  tooManyEvents: `A feature can have at most ${FEATURE_EVENTS_MAX} events`,
  notFound: 'Feature not found',
} as const

/** The screen's texts (part 1 §2, §8). */
export const FEATURE_TEXT = {
  heading: 'Your features',
  add: 'Add feature...',
  empty: 'No features found',
  newTitle: 'Track new feature',
  title: 'Feature',
  modal: 'feature-modal',
  addEvent: 'Add event',
  deleted: (name: string) => `${name} has been deleted`,
  deleteConfirm: (name: string) => `Are you sure you want to delete the feature "${name}"?`,
} as const

/** Trimmed; required and at most 49 characters (part 1 §5). */
export const featureNameSchema = z
  .string({ error: FEATURE_ERRORS.nameRequired })
  .transform((s) => s.trim())
  .refine((s) => s.length > 0, FEATURE_ERRORS.nameRequired)
  .refine((s) => s.length <= FEATURE_NAME_MAX, FEATURE_ERRORS.nameTooLong)

export const eventNameSchema = z
  .string({ error: FEATURE_ERRORS.eventBlank })
  .transform((s) => s.trim())
  .refine((s) => s.length > 0, FEATURE_ERRORS.eventBlank)
  .refine((s) => s.length <= EVENT_NAME_MAX, FEATURE_ERRORS.eventTooLong)

/** Each name trimmed; a name listed twice is kept once, in its first place (a chip list has no duplicates). */
export const featureEventsSchema = z
  .array(eventNameSchema, { error: FEATURE_ERRORS.eventsList })
  .transform((names) => [...new Set(names)])
  .pipe(z.array(z.string()).max(FEATURE_EVENTS_MAX, FEATURE_ERRORS.tooManyEvents))

/** POST /api-v2/orgs/{organization}/features. A feature may start without events. */
export const createFeatureSchema = z.object({
  name: featureNameSchema,
  events: featureEventsSchema.default([]),
})
export type CreateFeature = z.output<typeof createFeatureSchema>

/** PATCH /api-v2/orgs/{organization}/features/{featureId}: what is sent changes, what is left out stays. */
export const updateFeatureSchema = z.object({
  name: featureNameSchema.optional(),
  events: featureEventsSchema.optional(),
})
export type UpdateFeature = z.output<typeof updateFeatureSchema>

/** A row of GET .../features. */
export interface FeatureSummary {
  id: string
  name: string
}

/** GET .../features */
export interface FeatureList {
  features: FeatureSummary[]
}

/** GET .../features/{featureId}, and the answer of POST and PATCH: each event carries event_name (part 1 §3). */
export interface FeatureDetail {
  id: string
  name: string
  events: Array<{ event_name: string }>
}

/** A known event of GET /api-v2/orgs/{organization}/events: a track event's name and how often it was sent. */
export interface KnownEvent {
  name: string
  volume: number
}

/**
 * GET /api-v2/orgs/{organization}/events[?search=text]: the organisation's
 * track events, most frequent first, at most KNOWN_EVENTS_MAX; `search` keeps
 * the names that contain it, ignoring case. An organisation with more events
 * than that finds the rest by searching.
 */
export interface KnownEventList {
  events: KnownEvent[]
}

export const KNOWN_EVENTS_MAX = 1000
/** Longer search text cannot match an event name (EVENT_NAME_MAX), so it is refused rather than sent to the store. */
export const EVENT_SEARCH_MAX = EVENT_NAME_MAX
