import type { CompanyAnalytics, CompanyDetail, CompanyDetails, CompanyVisitors } from '@fl0/contracts'
import { COMPANY_TEXT } from '@fl0/contracts/companies'
import { getOrgSettings } from '@fl0/stores'
import type { ApiDeps } from '../deps.ts'
import { fieldError, notFound } from '../http/errors.ts'
import { loadAnalytics } from './analytics.ts'
import { normalizeDomain, resolveCompanyMembers, type CompanyMembers } from '@fl0/query'
import { buildFeed, loadFeedRows } from './feed.ts'
import { logoUrlFor } from './logo.ts'
import { companyNameFromPeople, loadPeople } from './people.ts'
import { loadBusinessIntents } from '../identification/intents.ts'
import { loadCompanyIpPlace, loadIpPlaces } from './places.ts'
import { loadGroupTraits } from './profile.ts'
import { loadDaily, loadSeen } from './summary.ts'
import { allTraits, panelTraits, withIpPlace, type TraitValue } from './traits.ts'
import { loadVisitors } from './visitors.ts'
import { companyWindow, type CompanyWindow } from './window.ts'

/**
 * The company page's answers, one function per call. Each finds the company
 * (its domain, its members; 404 when no event names it) and its window (the
 * organisation's 30 days in its time zone), then runs its queries, in parallel
 * where they do not depend on each other.
 */
interface Found {
  deps: ApiDeps
  orgId: string
  members: CompanyMembers
  window: CompanyWindow
}

async function findCompany(deps: ApiDeps, orgId: string, param: string): Promise<Found> {
  const domain = normalizeDomain(param)
  if (!domain) throw fieldError('company', COMPANY_TEXT.invalidDomain)
  const [members, settings] = await Promise.all([resolveCompanyMembers(deps.events.client, orgId, domain), getOrgSettings(deps.sql, orgId)])
  if (members.identifiedBy.length === 0) throw notFound(COMPANY_TEXT.notFound(domain))
  return { deps, orgId, members, window: companyWindow(deps.now(), settings.timezone) }
}

function websiteOf(traits: Record<string, TraitValue>, domain: string): string {
  const site = traits.website
  if (typeof site === 'string' && /^https?:\/\//i.test(site)) return site
  if (typeof site === 'string' && site) return `https://${site}`
  return `https://${domain}`
}

export async function companyDetail(deps: ApiDeps, orgId: string, param: string): Promise<CompanyDetail> {
  const f = await findCompany(deps, orgId, param)
  const client = deps.events.client
  const now = f.window.params.w_now
  const [traits, people, daily, feed, ipPlaces, companyPlace, intents] = await Promise.all([
    loadGroupTraits(client, orgId, f.members),
    loadPeople(client, orgId, f.members),
    loadDaily(client, orgId, f.members, f.window),
    loadFeedRows(client, orgId, f.members, f.window),
    loadIpPlaces(client, orgId, f.members, now),
    loadCompanyIpPlace(client, orgId, f.members, now),
    loadBusinessIntents(client, f.members.domain, f.window.dates[0]!),
  ])
  // The last activity is the window's when it has any (the window ends now); only a company quiet for
  // the whole window is looked up further back. At 10 million events that read took 0.5 s.
  const lastSeen = daily.lastSeen ?? (await loadSeen(client, orgId, f.members, now)).lastSeen
  const domain = f.members.domain
  return {
    name: nameOf(traits, people, domain),
    domain,
    logoUrl: logoUrlFor(deps.logoUrlTemplate, domain),
    website: websiteOf(traits, domain),
    visitors: daily.windowVisitors,
    lastSeen,
    pageViews: daily.pageViews.reduce((n, p) => n + p.value, 0),
    graph: daily.pageViews,
    traits: panelTraits(withIpPlace(traits, companyPlace)),
    dates: buildFeed(feed.rows, people, ipPlaces),
    timezone: f.window.timezone,
    truncated: feed.truncated,
    intents,
  }
}

export async function companyVisitors(deps: ApiDeps, orgId: string, param: string): Promise<CompanyVisitors> {
  const f = await findCompany(deps, orgId, param)
  const client = deps.events.client
  const [people, ipPlaces] = await Promise.all([loadPeople(client, orgId, f.members), loadIpPlaces(client, orgId, f.members, f.window.params.w_now)])
  return { visitors: await loadVisitors(client, orgId, f.members, f.window, people, ipPlaces) }
}

export async function companyAnalytics(deps: ApiDeps, orgId: string, param: string): Promise<CompanyAnalytics> {
  const f = await findCompany(deps, orgId, param)
  return loadAnalytics(deps.events.client, orgId, f.members, f.window)
}

export async function companyDetails(deps: ApiDeps, orgId: string, param: string): Promise<CompanyDetails> {
  const f = await findCompany(deps, orgId, param)
  const client = deps.events.client
  const now = f.window.params.w_now
  const [traits, people, seen, companyPlace] = await Promise.all([
    loadGroupTraits(client, orgId, f.members),
    loadPeople(client, orgId, f.members),
    loadSeen(client, orgId, f.members, now),
    loadCompanyIpPlace(client, orgId, f.members, now),
  ])
  const domain = f.members.domain
  return {
    name: nameOf(traits, people, domain),
    domain,
    website: websiteOf(traits, domain),
    groupIds: f.members.groupIds,
    identifiedBy: f.members.identifiedBy,
    knownPeople: f.members.people,
    firstSeen: seen.firstSeen,
    lastSeen: seen.lastSeen,
    traits: allTraits(withIpPlace(traits, companyPlace)),
  }
}

/** The group's name trait, else the company its people named in identify calls, else the domain. */
export function nameOf(traits: Record<string, TraitValue>, people: Parameters<typeof companyNameFromPeople>[0], domain: string): string {
  return (typeof traits.name === 'string' && traits.name.trim()) || companyNameFromPeople(people) || domain
}
