import { parseArgs } from 'node:util'
import { DEFAULTS, type DemoOptions } from './generator/index.ts'

/** The command line of `npm run demo -- [options]`, parsed and checked. */
export const USAGE = `Usage: npm run demo -- [options]

Creates (or reuses) the organisation 'demo' with a snippet and a Segment source,
and sends generated traffic through fl0's ingest. Starts fl0 itself on
FL0_DATA_DIR (default ./data): stop a running fl0 first.

Options:
  --companies N   companies in the world (default ${DEFAULTS.companies})
  --people N      people in the world (default ${DEFAULTS.people})
  --days N        whole UTC days of traffic, the last being today (default ${DEFAULTS.days})
  --seed N        the generator's seed (default ${DEFAULTS.seed})
  --events N      about N calls in all: scales visit rates (default: whatever the sizes give)
  --end TIME      end the window at TIME (ISO 8601; a bare date means its end) instead of now
  --partners DIR  also write the identity partners' files for this world into DIR
                  (ip-to-company.csv, universal.csv, cookies.csv, business-intents.csv)
  --json          print one JSON line (url_code, org_id, sources and write keys, events) on stdout
  -h, --help      this text
`

export interface CliArgs {
  demo: DemoOptions
  /** Where to write the partner files (generator/partners.ts), if anywhere. */
  partners?: string
  json: boolean
  help: boolean
}

export function parseCliArgs(argv: string[], now: () => Date = () => new Date()): CliArgs {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      companies: { type: 'string' },
      people: { type: 'string' },
      days: { type: 'string' },
      seed: { type: 'string' },
      events: { type: 'string' },
      end: { type: 'string' },
      partners: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  })
  const demo: DemoOptions = {
    companies: count('companies', values.companies, 0, 65_536),
    people: count('people', values.people, 0, 10_000_000),
    days: count('days', values.days, 1, 3_650),
    seed: count('seed', values.seed, 0, 2 ** 32 - 1),
    events: count('events', values.events, 0, 1e10),
    now: values.end === undefined ? now() : endTime(values.end),
  }
  return { demo, partners: values.partners, json: values.json ?? false, help: values.help ?? false }
}

function count(name: string, text: string | undefined, min: number, max: number): number | undefined {
  if (text === undefined) return undefined
  const value = Number(text.replace(/_/g, ''))
  if (!/^\d[\d_]*$/.test(text) || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new Error(`--${name} must be a whole number from ${min} to ${max}, not '${text}'`)
  }
  return value
}

function endTime(text: string): Date {
  // A bare date ends the window at that day's last millisecond (UTC): the whole day is in.
  const date = /^\d{4}-\d{2}-\d{2}$/.test(text) ? new Date(`${text}T23:59:59.999Z`) : new Date(text)
  if (Number.isNaN(date.getTime())) throw new Error(`--end must be an ISO 8601 date or time, not '${text}'`)
  return date
}
