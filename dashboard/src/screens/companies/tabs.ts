import { COMPANY_TEXT } from '@fl0/contracts/companies'

/**
 * The company page's tabs (part 1 §2), each a sub-path of the page so a tab
 * can be linked to: …/companies/acme.com is Intent (the default),
 * …/companies/acme.com/visitors, /analytics and /details the others.
 */
export const COMPANY_TABS = [
  { path: '', label: COMPANY_TEXT.tabs.intent },
  { path: 'visitors', label: COMPANY_TEXT.tabs.visitors },
  { path: 'analytics', label: COMPANY_TEXT.tabs.analytics },
  { path: 'details', label: COMPANY_TEXT.tabs.details },
] as const

export type CompanyTabPath = (typeof COMPANY_TABS)[number]['path']

/** The tab of the path after the company, or undefined for a path that is none. */
export function tabOf(rest: string): CompanyTabPath | undefined {
  const path = rest.replace(/\/+$/, '')
  return COMPANY_TABS.find((t) => t.path === path)?.path
}
