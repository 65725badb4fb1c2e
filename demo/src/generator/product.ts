import { appPage, PAGES, type PageDef } from './site.ts'
import type { Rng } from './random.ts'
import type { PlantedRule } from './types.ts'

/**
 * The demo product's events: what people do inside the app, with the page each
 * happens on and the source that reports it (the browser snippet or the
 * backend's Segment library).
 */
export const FEATURES = [
  'Funnels', 'Retention', 'Cohorts', 'Journeys', 'Segmentation', 'SQL Editor', 'Data Dictionary', 'Experiments', 'Session Replay', 'Heatmaps',
] as const

export const featureSlug = (feature: string) => feature.toLowerCase().replace(/[^a-z0-9]+/g, '-')

export const INTEGRATIONS: ReadonlyArray<readonly [string, string]> = [
  ['Salesforce', 'CRM'], ['HubSpot', 'CRM'], ['Slack', 'Messaging'], ['Microsoft Teams', 'Messaging'], ['Segment', 'CDP'],
  ['Snowflake', 'Warehouse'], ['BigQuery', 'Warehouse'], ['Intercom', 'Support'], ['Zendesk', 'Support'], ['Stripe', 'Billing'],
]

export const DASHBOARDS = ['Weekly KPIs', 'Activation', 'Revenue', 'Website Traffic', 'Product Usage', 'Pipeline', 'Retention Overview', 'Trial Health'] as const

/**
 * Optional key events: each person either performs one (a habit, drawn at
 * these rates) or never does. The planted rule is defined over them.
 */
export const HABIT_EVENTS: ReadonlyArray<readonly [string, number]> = [
  ['Integration Connected', 0.5],
  ['Invite Sent', 0.5],
  ['Alert Created', 0.3],
  ['Export Downloaded', 0.45],
  ['Dashboard Shared', 0.25],
]

/**
 * The default planted rule: people who connect an integration and invite a
 * colleague upgrade nine times in ten, everyone else three times in a hundred.
 * Strong enough that a model can tell, a month ahead, who is likelier to
 * upgrade than not (see workers/src/scoring/README.md).
 */
export const DEFAULT_RULE: PlantedRule = {
  given: ['Integration Connected', 'Invite Sent'],
  conversion: 'Plan Upgraded',
  rate: 0.9,
  baseRate: 0.03,
}

export interface Action {
  event: string
  source: 'snippet' | 'segment'
  page?: PageDef
  properties: Record<string, unknown>
}

/** Everyday actions with their weights; habit events join only for people who have the habit. */
const EVERYDAY: ReadonlyArray<readonly [string, number]> = [
  ['Feature Used', 40],
  ['Dashboard Viewed', 22],
  ['Report Created', 9],
  ['Search Performed', 7],
]
const HABIT_WEIGHTS: Record<string, number> = {
  'Integration Connected': 1.2,
  'Invite Sent': 1.5,
  'Alert Created': 3,
  'Export Downloaded': 6,
  'Dashboard Shared': 3,
}

/** The next thing a person does in a product session. */
export function nextActionName(rng: Rng, habits: Record<string, number>, day: number): string {
  const options: Array<readonly [string, number]> = [...EVERYDAY]
  for (const [event, first] of Object.entries(habits)) {
    if (day >= first) options.push([event, HABIT_WEIGHTS[event] ?? 1])
  }
  return rng.weighted(options)
}

export interface ActionInput {
  rng: Rng
  /** The person's features, most used first. */
  features: number[]
  /** A colleague's e-mail to invite (or a made-up one when nobody is left). */
  inviteeEmail: () => string
  plan: { previous: string; next: string; mrr: number } | null
}

export function buildAction(name: string, input: ActionInput): Action {
  const { rng } = input
  switch (name) {
    case 'Feature Used': {
      // A Zipf-like pull toward the person's favourites.
      const rank = Math.min(input.features.length - 1, Math.floor(rng.exponential(1.6)))
      const feature = FEATURES[input.features[rank]]
      return { event: name, source: 'snippet', page: appPage(`/${featureSlug(feature)}`, feature), properties: { feature, duration_seconds: Math.round(rng.logNormal(90, 0.9)) } }
    }
    case 'Dashboard Viewed': {
      const index = Math.min(DASHBOARDS.length - 1, Math.floor(rng.exponential(2)))
      return {
        event: name,
        source: 'snippet',
        page: appPage(`/dashboards/${index + 1}`, 'Dashboard'),
        properties: { dashboard_id: `dsh_${index + 1}`, dashboard_name: DASHBOARDS[index], widgets: 4 + ((index * 3) % 9) },
      }
    }
    case 'Report Created':
      return {
        event: name,
        source: 'snippet',
        page: PAGES.newReport,
        properties: { report_id: `rpt_${rng.hex(10)}`, report_type: rng.weighted([['trend', 5], ['funnel', 3], ['retention', 2], ['table', 2]] as const), metrics_count: rng.int(1, 5) },
      }
    case 'Search Performed':
      return { event: name, source: 'snippet', properties: { query: rng.pick(['signups', 'pricing page', 'churn', 'mrr', 'activation', 'onboarding', 'trial', 'enterprise accounts']), results: rng.int(0, 40) } }
    case 'Integration Connected': {
      const [integration, category] = rng.pick(INTEGRATIONS)
      return { event: name, source: 'segment', page: PAGES.integrationsSettings, properties: { integration, category } }
    }
    case 'Invite Sent':
      return { event: name, source: 'segment', page: PAGES.team, properties: { invitee_email: input.inviteeEmail(), invitee_role: rng.weighted([['member', 6], ['admin', 1], ['viewer', 3]] as const) } }
    case 'Alert Created':
      return { event: name, source: 'snippet', page: PAGES.alerts, properties: { metric: rng.pick(['Signups', 'Active Users', 'Conversion Rate', 'Churned Accounts']), threshold: rng.int(5, 500), channel: rng.pick(['email', 'slack']) } }
    case 'Export Downloaded':
      return { event: name, source: 'snippet', properties: { format: rng.weighted([['csv', 6], ['pdf', 2], ['png', 2]] as const), rows: Math.round(rng.logNormal(400, 1.2)) } }
    case 'Dashboard Shared':
      return { event: name, source: 'snippet', properties: { dashboard_id: `dsh_${rng.int(1, DASHBOARDS.length)}`, channel: rng.pick(['link', 'email', 'slack']) } }
    case 'Plan Upgraded': {
      const plan = input.plan ?? { previous: 'free', next: 'starter', mrr: 99 }
      return {
        event: name,
        source: 'segment',
        page: PAGES.billing,
        properties: {
          previous_plan: plan.previous,
          plan: plan.next,
          upgrade_type: plan.previous === plan.next ? 'seats' : 'tier',
          mrr: plan.mrr,
          billing_cycle: rng.weighted([['monthly', 3], ['annual', 2]] as const),
        },
      }
    }
    default:
      throw new Error(`unknown action ${name}`)
  }
}
