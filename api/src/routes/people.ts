import { Hono } from 'hono'
import { stringify } from 'csv-stringify/sync'
import { PEOPLE_CSV_COLUMNS, PROFILE_TRAIT_ERRORS, PROFILE_TRAIT_TYPES, peopleQuerySchema, type PersonRow, profileEventsQuerySchema, profileTraitSettingSchema, type ProfileTraitType } from '@fl0/contracts'
import type { ApiDeps } from '../deps.ts'
import type { ApiEnv } from '../env.ts'
import { currentOrg } from '../guard/index.ts'
import { notFound } from '../http/errors.ts'
import { jsonBody } from '../http/validate.ts'
import { companyProfile, featureAdoption } from '../people/company-profile.ts'
import { profileEvents, storedEvent } from '../people/events.ts'
import { allPeople, listPeople } from '../people/list.ts'
import { findPerson, userProfile } from '../people/profile.ts'
import { chooseProfileTrait, profileTraitSettings } from '../people/profile-traits.ts'

/**
 * People and profiles (spec part 3 §7 "People and audiences", "Profiles"),
 * one router per path prefix the specification gives them. Who a person is:
 * people/identity.ts; who belongs to a company: companies/members.ts. Every
 * call reads the caller's organisation only; an id it does not know, or
 * another organisation's, is a 404 with the same message.
 */

/** A person as a CSV record, in PEOPLE_CSV_COLUMNS' order: raw values (ISO times, whole numbers), for a spreadsheet to read. */
const csvRecord = (p: PersonRow) => [
  p.id,
  p.visitor,
  p.email ?? '',
  p.company ?? '',
  p.companyDomain ?? '',
  p.visits,
  p.role ?? '',
  p.lastSeen ?? '',
  p.employees ?? '',
  p.revenue ?? '',
  p.linkedInUrl ?? '',
  p.hasBusinessEmail ? 'yes' : 'no',
  p.hasPersonalEmail ? 'yes' : 'no',
  p.hasHEM ? 'yes' : 'no',
]

/**
 * /api-v2/orgs/{organization}/people?page&ip2company&search, and
 * …/people/export.csv?ip2company&search: every person the same query finds
 * (not a page), in the list's order, as RFC 4180 CSV (csv-stringify's
 * quoting, CRLF line ends) with a header row, downloaded as a file. Both read the caller's organisation only (the guard's
 * membership check, as every organisation route).
 */
export function createPeopleListRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>()
  app.get('/', async (c) => {
    const query = peopleQuerySchema.parse(c.req.query())
    return c.json(await listPeople(deps.events.client, currentOrg(c).id, deps.now(), query))
  })
  app.get('/export.csv', async (c) => {
    const org = currentOrg(c)
    const { ip2company, search } = peopleQuerySchema.parse(c.req.query())
    const now = deps.now()
    // Read whole before the first byte goes out: a failure is then an error answer, not a cut-off file.
    const records: Array<Array<string | number>> = [[...PEOPLE_CSV_COLUMNS]]
    for (const person of await allPeople(deps.events.client, org.id, now, { ip2company, search })) records.push(csvRecord(person))
    const file = `people-${org.url_code}-${now.toISOString().slice(0, 10)}.csv`.replace(/[^\w.-]/g, '_')
    return c.body(stringify(records, { record_delimiter: 'windows' }), 200, {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${file}"`,
      'Cache-Control': 'no-store',
    })
  })
  return app
}

/** /api/orgs/{organization}/people/{userId}: the user profile. */
export function createUserProfileRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>()
  app.get('/:userId', async (c) => c.json(await userProfile(deps, currentOrg(c).id, c.req.param('userId'))))
  return app
}

/** /api-v2/orgs/{organization}/users/{userId}/profile/events[/{messageId}]: the user profile's Events tab. */
export function createUserEventsRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>()
  app.get('/:userId/profile/events', async (c) => {
    const org = currentOrg(c).id
    const { page } = profileEventsQuerySchema.parse(c.req.query())
    const person = await findPerson(deps.events.client, org, c.req.param('userId'))
    return c.json(await profileEvents(deps.events.client, deps.sql, org, person, page))
  })
  app.get('/:userId/profile/events/:messageId', async (c) => {
    const org = currentOrg(c).id
    const person = await findPerson(deps.events.client, org, c.req.param('userId'))
    return c.json(await storedEvent(deps.events.client, org, person, c.req.param('messageId')))
  })
  return app
}

/** /api/orgs/{organization}/company/{companyId}[/feature-adoption]: the company profile, {companyId} being the domain. */
export function createCompanyProfileRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>()
  app.get('/:companyId', async (c) => c.json(await companyProfile(deps, currentOrg(c).id, c.req.param('companyId'))))
  app.get('/:companyId/feature-adoption', async (c) => c.json(await featureAdoption(deps, currentOrg(c).id, c.req.param('companyId'))))
  return app
}

const profileType = (value: string): ProfileTraitType => {
  if (!(PROFILE_TRAIT_TYPES as readonly string[]).includes(value)) throw notFound(PROFILE_TRAIT_ERRORS.type)
  return value as ProfileTraitType
}

/** /api/orgs/{organization}/profile_traits/{company|user}: which traits the Traits cards show, per organisation. */
export function createProfileTraitsRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>()
  app.get('/:type', async (c) => c.json(await profileTraitSettings(deps.sql, currentOrg(c).id, profileType(c.req.param('type')))))
  app.post('/:type', jsonBody(profileTraitSettingSchema), async (c) => {
    const type = profileType(c.req.param('type'))
    return c.json(await chooseProfileTrait(deps.sql, currentOrg(c).id, type, c.req.valid('json')))
  })
  return app
}
