import { IDENTIFICATION_TEXT } from '@fl0/contracts/identification'
import type { AdminAction } from '../../api/admin.ts'

const { progress } = IDENTIFICATION_TEXT

/**
 * The admin area's texts. The progress notices and 'HandleCallback completed'
 * are the specification's own (part 1 §8), kept once in the contracts; the
 * rest are ours.
 */
export const ADMIN_TEXT = {
  callbackCompleted: IDENTIFICATION_TEXT.callbackCompleted,
  /** Beside an IP filter not yet applied: the server's own rule. */
  invalidIpAddress: IDENTIFICATION_TEXT.invalidIpAddress,
  /** 5x5- and 32 digits: the shape of a universal person id (part 1 §2, §5). */
  upIdPlaceholder: '5x5-12345678901234567890123456789012',
  importUniversalTable: 'Import universal table...',
  refused: 'Only staff can open the admin area.',
} as const

/** What each Tools button is called and the notice its click shows. */
export interface Tool {
  action: AdminAction
  /** What the row is about, and what the action does to it (docs/identification.md). */
  title: string
  description: string
  /** The button. */
  label: string
  /** The notice a click shows (part 1 §8). */
  progress: string
  /** The notice when it has finished and the answer says nothing of its own. */
  done: string
  /** For an import: the file chooser's name. */
  upload?: string
}

export const TOOLS: readonly Tool[] = [
  {
    action: 'import-cookies',
    title: 'Cookies',
    description: 'puid ↔ up_id pairs from a CSV with the columns puid, upid and, optionally, hem.',
    label: 'Import cookies...',
    progress: progress['import-cookies'],
    done: 'Cookies imported',
    upload: 'Cookies file',
  },
  {
    action: 'import-ip-to-company',
    title: 'IP to company',
    description: 'IP ranges and their companies from a CSV (network, or first_ip and last_ip; company_name, domain, kind) or a MaxMind .mmdb database.',
    label: 'Import ip to company...',
    progress: progress['import-ip-to-company'],
    done: 'Ip to company imported',
    upload: 'Ip to company file',
  },
  {
    action: 'import-business-intents',
    title: 'Business intents',
    description: 'Intent topics by company domain from a CSV with the columns company_domain, topic, score and date; shown on the company page.',
    label: 'Import business intents...',
    progress: progress['import-business-intents'],
    done: 'Business intents imported',
    upload: 'Business intents file',
  },
  {
    action: 'refresh-sessions',
    title: 'Sessions and people',
    description: 'Rebuilds every visit from the stored events (30 minutes without an event ends one), matched against the current IP ranges.',
    label: 'Refresh sessions and people',
    progress: progress['refresh-sessions'],
    done: 'Sessions and people refreshed',
  },
  {
    action: 'refresh-pages-and-activities',
    title: 'Pages and activities',
    description: "Rebuilds the page views with their time on page, and each visitor's days.",
    label: 'Refresh pages and activities',
    progress: progress['refresh-pages-and-activities'],
    done: 'Pages and activities refreshed',
  },
  {
    action: 'copy-pages-to-supabase',
    title: 'Hosted database',
    description: 'Upserts people and pages into the PostgreSQL database at EXPORT_DATABASE_URL; a second run adds nothing twice.',
    label: 'Copy people and pages to supabase',
    progress: progress['copy-pages-to-supabase'],
    done: 'People and pages copied to supabase',
  },
]
