import type { Http, Query } from './http.ts'

/** An option of the admin grids' organisation picker (part 1 §7). */
export interface AdminOrgOption {
  value: string
  text: string
}

/** A raw table row: the admin grids show whatever columns the table has. */
export type AdminRow = Record<string, unknown>

/** A page of an admin grid: 20 rows and the total across pages (part 1 §3). */
export interface AdminPage<Row = AdminRow> {
  data: Row[]
  total: number
}

/** A figure of GET /api-v2/admin/summary (docs/identification.md). */
export interface AdminSummaryRow {
  key: string
  label: string
  value: number | string | null
}

/** What a Tools action answers once its job has finished (docs/identification.md). */
export interface AdminJob {
  id: string
  kind: string
  status: 'running' | 'succeeded' | 'failed'
  fileName: string | null
  startedAt: string
  finishedAt: string | null
  startedBy: string | null
  counts: Record<string, number>
  /** The first 100 lines skipped or refused. */
  errors: Array<{ line: number | null; message: string }>
  /** One line for the notice. */
  message: string
}

/** The filters each admin grid sends besides its page (part 1 §7). */
export interface AdminGridFilters {
  'people-table': { orgId?: string; showIp2Company: boolean; name?: string }
  'universal-table': { upId?: string }
  'pages-table': { orgId?: string }
  'identified-visits-table': { orgId?: string }
  'ip-to-company-table': { orgId?: string; ipAddress?: string }
}
export type AdminGridName = keyof AdminGridFilters

/** The Tools page's actions, each a POST of its own (part 1 §7); the imports send a file. */
export type AdminAction = 'import-cookies' | 'import-ip-to-company' | 'import-business-intents' | 'refresh-sessions' | 'refresh-pages-and-activities' | 'copy-pages-to-supabase'

/** The identity callback's query (part 1 §3): each part optional. */
export interface CallbackQuery {
  puid?: string
  hem?: string
  upid?: string
}

const ADMIN = '/api-v2/admin'

/** Empty filters are left out of the query, so that '' never reads as a value. */
function present(filters: Record<string, string | boolean | undefined>): Query {
  return Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined && v !== ''))
}

/** The admin area's calls (part 1 §7): staff only, the server refuses anyone else. */
export function createAdminApi(http: Http) {
  return {
    orgs: (signal?: AbortSignal) => http.get<AdminOrgOption[]>(`${ADMIN}/orgs`, { signal }),
    /** The summary's figures, one a row, as a grid's page. */
    summary: (signal?: AbortSignal) => http.get<AdminPage<AdminSummaryRow>>(`${ADMIN}/summary`, { signal }),
    /** One page of an admin grid with its filters. */
    table: <G extends AdminGridName>(grid: G, filters: AdminGridFilters[G], page: number, signal?: AbortSignal) =>
      http.get<AdminPage>(`${ADMIN}/${grid}`, { query: { ...present(filters), page }, signal }),
    /**
     * A Tools action, answered when its job has finished; the imports send the
     * chosen file as `file`. Queued like any write.
     */
    run: (action: AdminAction, file?: File) => {
      let body: FormData | undefined
      if (file) {
        body = new FormData()
        body.append('file', file, file.name)
      }
      return http.post<AdminJob>(`${ADMIN}/${action}`, body)
    },
    /** Starts the universal table import: its progress text, chunk by chunk, as the server writes it. */
    importUniversalTable: (file: File, onChunk: (text: string) => void, signal?: AbortSignal) => {
      const body = new FormData()
      body.append('file', file, file.name)
      return http.stream('POST', `${ADMIN}/universal-table/import`, { body, onChunk, signal })
    },
    /** The running universal table import's log from its start, or the last one's, streamed the same way. */
    universalTableImportLog: (onChunk: (text: string) => void, signal?: AbortSignal) =>
      http.stream('GET', `${ADMIN}/universal-table/import`, { onChunk, signal }),
    /**
     * The identity partner's callback (ingest), as the handle-callback test
     * form sends it. It answers a GIF pixel, whatever it was given: only the
     * status says anything.
     */
    callback: (query: CallbackQuery) => http.get<unknown>('/i/callback', { query: present({ ...query }) }),
  }
}

export type AdminApi = ReturnType<typeof createAdminApi>
