import { z } from 'zod'

/**
 * Sources (spec part 1 §3, §5, §7): a snippet on a website, or a Segment-type
 * pipeline. The messages are the specification's, word for word.
 */
export const SOURCE_DEFAULT_NAMES = { segment: 'segment', snippet: 'js-snippet' } as const

export const sourceNameSchema = z
  .string({ error: 'Name must be provided' })
  .refine((s) => s.trim().length > 0, 'Name must be provided')
  .refine((s) => s.length <= 99, 'Name must have less than 100 characters')

/** A site's domain as the snippet source records it: "www.example.com", no scheme. */
export const snippetDomainSchema = z
  .string({ error: 'Domain must be provided' })
  .transform((s) => s.trim())
  .refine((s) => s.length > 0, 'Domain must be provided')
  .refine((s) => s.length <= 299, 'Domain must have less than 300 characters')
  .refine((s) => !/^https?:\/\//i.test(s), 'Domain must not start with http:// or https://')
  .refine((s) => /^[^\s.]+(\.[^\s.]+)+$/.test(s), 'Domain must be valid (e.g. a www domain)')

export const saveDataSourcesSchema = z.object({ domain: snippetDomainSchema })

/** GET /api-v2/orgs/{organization}/data-sources */
export interface DataSourcesRecord {
  domain: string
  snippet: string
}

/** GET /api/t/snippet: defaults for a new snippet source. */
export interface SnippetDefaults {
  id: string
  snippet: string
  name: string
  url: string
  api_key: string
}
