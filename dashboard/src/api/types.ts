/**
 * The shapes of docs/api-session-contract.md. Until contracts/src/{auth,orgs,
 * team,settings}.ts exist these are written out by hand; then they become
 * z.infer of those schemas.
 */
export interface AuthConfig {
  provider: 'local' | 'oidc'
  issuer?: string
  clientId?: string
}
export interface Preferences {
  isMenuCollapsed: boolean
  defaultOrgUrlCode: string | null
}
export interface OrgMembership {
  id: string
  name: string
  url_code: string
  role: 'admin' | 'member'
}
export interface CurrentUser {
  id: string
  name: string
  email: string
  isStaff: boolean
  preferences: Preferences
  orgs: OrgMembership[]
}
export interface TeamMember {
  id: string
  email: string
  role: 'admin' | 'member'
  invitation_status: 'pending' | 'expired' | 'accepted'
}
export interface InvitationInfo {
  email: string
  organization: { name: string; url_code: string }
  status: 'pending' | 'expired' | 'accepted'
}
export interface OrgSettings {
  timezone: string
  timezones: string[]
  companyPaths: string[]
}
export interface SaveSettingsBody {
  timezone: string
  companyPaths: string[]
}
