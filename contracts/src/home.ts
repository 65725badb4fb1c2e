/**
 * The organisation's home (not in the specification, which redirects the home
 * to /reports or /people; issue 22 asks for a page answering "who visited this
 * week"). GET /api-v2/orgs/{organization}/home: one call for the whole page.
 *
 * "This week" is the 7 days up to now; "last week" the 7 days before. New
 * means active this week and not last week. People are identified people
 * (anonymous visitors are left out of their count); companies are those of
 * anyone active, as the people list's company column names them (group
 * calls, business e-mail, visitor identification).
 */
export interface HomePerson {
  /** The person key (a user id): the profile's address. */
  id: string
  name: string
  email: string | null
  company: string | null
  companyDomain: string | null
  /** Page, screen and track calls this week. */
  events: number
  lastSeen: string
  isNew: boolean
}

export interface HomeCompany {
  domain: string
  name: string
  /** People (identified or not) of the company active this week. */
  people: number
  events: number
  isNew: boolean
}

export interface HomePage {
  path: string
  /** The latest full address seen for the path (the page to open). */
  url: string
  title: string
  views: number
  visitors: number
}

export interface HomeSummary {
  from: string
  to: string
  people: { active: number; new: number; top: HomePerson[] }
  companies: { active: number; new: number; top: HomeCompany[] }
  pages: HomePage[]
}

export const HOME_TEXT = {
  heading: 'This week',
  subtitle: 'Who visited in the last 7 days',
  people: 'People',
  companies: 'Companies',
  pages: 'Top pages',
  newSinceLastWeek: (n: number) => `${n.toLocaleString('en-US')} new since last week`,
  noPeople: 'No identified person was active this week.',
  noCompanies: 'No company was identified this week.',
  noPages: 'No page was viewed this week.',
  allPeople: 'All people',
  /** Nothing at all this week: where events come from. */
  quiet: 'No visits this week yet. Visits arrive from your data sources: add the JS snippet to your site or connect a Segment source.',
  dataSources: 'Open Data sources',
} as const
