import type { Rng } from './random.ts'

/**
 * The demo organisation's website and web app: the pages visitors see, where
 * they come from (referrers and campaigns), and the browsers they use.
 */
export const SITE_HOST = 'demo.fl0.dev'
export const SITE_ORIGIN = `https://${SITE_HOST}`
const BRAND = 'Lumina Analytics'

export interface PageDef {
  path: string
  name: string
  category: 'Marketing' | 'Blog' | 'Docs' | 'App'
  title: string
}

const marketing = (path: string, name: string, title = `${name} | ${BRAND}`): PageDef => ({ path, name, category: 'Marketing', title })
const blog = (slug: string, title: string): PageDef => ({ path: `/blog/${slug}`, name: 'Blog Post', category: 'Blog', title: `${title} | ${BRAND} Blog` })
const docs = (slug: string, name: string): PageDef => ({ path: `/docs/${slug}`, name, category: 'Docs', title: `${name} | ${BRAND} Docs` })
export const appPage = (path: string, name: string): PageDef => ({ path: `/app${path}`, name, category: 'App', title: `${name} · ${BRAND}` })

export const PAGES = {
  home: marketing('/', 'Home', `${BRAND}: know who visits and what they do`),
  pricing: marketing('/pricing', 'Pricing'),
  features: marketing('/features', 'Features'),
  customers: marketing('/customers', 'Customers'),
  integrations: marketing('/integrations', 'Integrations'),
  about: marketing('/about', 'About'),
  careers: marketing('/careers', 'Careers'),
  contact: marketing('/contact', 'Contact'),
  demo: marketing('/demo', 'Request a Demo'),
  signup: marketing('/signup', 'Sign Up'),
  login: marketing('/login', 'Log In'),
  blogIndex: { path: '/blog', name: 'Blog', category: 'Blog', title: `Blog | ${BRAND}` } as PageDef,
  docsIndex: { path: '/docs', name: 'Docs', category: 'Docs', title: `Docs | ${BRAND}` } as PageDef,
  appHome: appPage('', 'Home'),
  onboarding: appPage('/onboarding', 'Onboarding'),
  newReport: appPage('/reports/new', 'New Report'),
  alerts: appPage('/alerts', 'Alerts'),
  integrationsSettings: appPage('/settings/integrations', 'Integrations Settings'),
  team: appPage('/settings/team', 'Team Settings'),
  billing: appPage('/settings/billing', 'Billing'),
} as const

const FEATURE_PAGES: PageDef[] = [
  marketing('/features/visitor-identification', 'Visitor Identification'),
  marketing('/features/product-analytics', 'Product Analytics'),
  marketing('/features/ai-scoring', 'AI Scoring'),
  marketing('/features/audiences', 'Audiences'),
]

const BLOG_POSTS: PageDef[] = [
  blog('b2b-funnel-benchmarks-2026', 'B2B funnel benchmarks for 2026'),
  blog('identify-anonymous-website-visitors', 'How to identify anonymous website visitors'),
  blog('product-qualified-leads', 'Product-qualified leads, explained'),
  blog('segment-vs-snippet', 'Segment or a snippet? Choosing your tracking'),
  blog('retention-curves', 'Reading retention curves without fooling yourself'),
  blog('activation-metrics', 'Five activation metrics that predict revenue'),
  blog('cookieless-tracking', 'Tracking after third-party cookies'),
  blog('churn-signals', 'The churn signals hiding in your product data'),
]

const DOCS: PageDef[] = [
  docs('getting-started', 'Getting Started'),
  docs('install-snippet', 'Install the Snippet'),
  docs('segment-source', 'Connect Segment'),
  docs('identify-calls', 'Identify Calls'),
  docs('metrics', 'Metrics'),
  docs('audiences', 'Audiences'),
  docs('api', 'API Reference'),
]

/** Pages an anonymous visitor browses, with weights: the home page and pricing dominate. */
const BROWSE: ReadonlyArray<readonly [PageDef, number]> = [
  [PAGES.home, 14],
  [PAGES.pricing, 10],
  [PAGES.features, 6],
  ...FEATURE_PAGES.map((p) => [p, 3] as const),
  [PAGES.customers, 4],
  [PAGES.integrations, 4],
  [PAGES.blogIndex, 3],
  ...BLOG_POSTS.map((p) => [p, 2.5] as const),
  [PAGES.docsIndex, 2],
  ...DOCS.map((p) => [p, 1.5] as const),
  [PAGES.about, 2],
  [PAGES.careers, 1],
  [PAGES.contact, 1],
]

/** Where a visit lands: blog posts and the home page catch most first visits. */
const LANDING: ReadonlyArray<readonly [PageDef, number]> = [
  [PAGES.home, 30],
  [PAGES.pricing, 8],
  ...FEATURE_PAGES.map((p) => [p, 3] as const),
  ...BLOG_POSTS.map((p) => [p, 5] as const),
  ...DOCS.map((p) => [p, 1.5] as const),
]

export function browsePage(rng: Rng): PageDef {
  return rng.weighted(BROWSE)
}

export function landingPage(rng: Rng): PageDef {
  return rng.weighted(LANDING)
}

export function docsPage(rng: Rng): PageDef {
  return rng.chance(0.2) ? PAGES.docsIndex : rng.pick(DOCS)
}

export interface Campaign {
  name: string
  source: string
  medium: string
  term?: string
  content?: string
}

export interface Arrival {
  referrer: string
  campaign?: Campaign
}

/** How a visit arrives: the referrer and, for paid or e-mail traffic, its UTM campaign. */
export function arrival(rng: Rng): Arrival {
  const kind = rng.weighted([
    ['direct', 28],
    ['google', 30],
    ['bing', 4],
    ['duckduckgo', 2],
    ['linkedin', 8],
    ['linkedin-ads', 3],
    ['twitter', 3],
    ['hn', 2],
    ['reddit', 2],
    ['g2', 3],
    ['newsletter', 5],
    ['google-ads', 7],
    ['partner', 3],
  ] as const)
  switch (kind) {
    case 'direct':
      return { referrer: '' }
    case 'google':
      return { referrer: 'https://www.google.com/' }
    case 'bing':
      return { referrer: 'https://www.bing.com/' }
    case 'duckduckgo':
      return { referrer: 'https://duckduckgo.com/' }
    case 'linkedin':
      return { referrer: 'https://www.linkedin.com/' }
    case 'linkedin-ads':
      return { referrer: 'https://www.linkedin.com/', campaign: { name: rng.pick(['abm-q4', 'webinar-identification', 'retargeting']), source: 'linkedin', medium: 'paid_social', content: rng.pick(['carousel', 'video', 'single-image']) } }
    case 'twitter':
      return { referrer: 'https://t.co/' }
    case 'hn':
      return { referrer: 'https://news.ycombinator.com/' }
    case 'reddit':
      return { referrer: 'https://www.reddit.com/r/analytics/' }
    case 'g2':
      return { referrer: 'https://www.g2.com/products/lumina-analytics/reviews' }
    case 'newsletter':
      return { referrer: '', campaign: { name: rng.pick(['monthly-digest', 'product-update', 'webinar-invite']), source: 'newsletter', medium: 'email' } }
    case 'google-ads':
      return {
        referrer: 'https://www.google.com/',
        campaign: { name: rng.pick(['brand', 'competitor', 'visitor-identification', 'product-analytics']), source: 'google', medium: 'cpc', term: rng.pick(['website visitor identification', 'b2b analytics', 'identify website visitors', 'product analytics tool', 'lumina analytics']) },
      }
    case 'partner':
      return { referrer: rng.pick(['https://www.productledweekly.com/tools', 'https://growthnotes.io/stack', 'https://saasdigest.co/reviews']) }
  }
}

/** The query string a landing URL carries for a campaign ('' without one). */
export function campaignSearch(campaign: Campaign | undefined, rng: Rng): string {
  if (!campaign) return ''
  const params = new URLSearchParams({ utm_source: campaign.source, utm_medium: campaign.medium, utm_campaign: campaign.name })
  if (campaign.term) params.set('utm_term', campaign.term)
  if (campaign.content) params.set('utm_content', campaign.content)
  if (campaign.source === 'google') params.set('gclid', rng.hex(24))
  return `?${params.toString()}`
}

const DESKTOP_SCREENS = [[1920, 1080, 1], [1440, 900, 2], [2560, 1440, 1], [1536, 864, 1.25], [1680, 1050, 2], [1366, 768, 1]] as const
const MOBILE_SCREENS = [[390, 844, 3], [393, 873, 2.75], [414, 896, 2], [360, 800, 3], [430, 932, 3]] as const

/** A browser: its User-Agent string and screen, drawn once per device. */
export function browser(rng: Rng, kind: 'desktop' | 'mobile'): { userAgent: string; screen: { width: number; height: number; density: number } } {
  if (kind === 'mobile') {
    const [width, height, density] = rng.pick(MOBILE_SCREENS)
    const ua = rng.chance(0.55)
      ? (() => {
          const major = rng.int(17, 18)
          const minor = rng.int(0, 6)
          return `Mozilla/5.0 (iPhone; CPU iPhone OS ${major}_${minor} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/${major}.${minor} Mobile/15E148 Safari/604.1`
        })()
      : `Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${rng.int(130, 141)}.0.0.0 Mobile Safari/537.36`
    return { userAgent: ua, screen: { width, height, density } }
  }
  const [width, height, density] = rng.pick(DESKTOP_SCREENS)
  const chrome = rng.int(130, 141)
  const firefox = rng.int(131, 145)
  const ua = rng.weighted([
    [`Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${chrome}.0.0.0 Safari/537.36`, 30],
    [`Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${chrome}.0.0.0 Safari/537.36`, 30],
    [`Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${chrome}.0.0.0 Safari/537.36 Edg/${chrome}.0.0.0`, 10],
    [`Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/${rng.int(17, 18)}.${rng.int(0, 6)} Safari/605.1.15`, 14],
    [`Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:${firefox}.0) Gecko/20100101 Firefox/${firefox}.0`, 7],
    [`Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:${firefox}.0) Gecko/20100101 Firefox/${firefox}.0`, 3],
    [`Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${chrome}.0.0.0 Safari/537.36`, 6],
  ] as const)
  return { userAgent: ua, screen: { width, height, density } }
}
