import { PROFILE_WINDOW_DAYS } from '@fl0/contracts'
import { getOrgSettings, type Sql } from '@fl0/stores'
import { companyWindow, type CompanyWindow } from '../companies/window.ts'

/**
 * The profiles' window (contracts' PROFILE_WINDOW_DAYS): the last 30
 * calendar days in the organisation's time zone, today included, up to now,
 * the company page's rule (companies/window.ts). `days` widens it (the
 * monthly active users graph looks 30 days further back).
 */
export async function profileWindow(sql: Sql, orgId: string, now: Date, days = PROFILE_WINDOW_DAYS): Promise<CompanyWindow> {
  const settings = await getOrgSettings(sql, orgId)
  return companyWindow(now, settings.timezone, days)
}
