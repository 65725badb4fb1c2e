import { describe, expect, it } from 'vitest'
import { accessFor, orgCodeOf } from './policy.ts'

describe('who may call a path', () => {
  it.each([
    ['GET', '/api/auth/config', 'public'],
    ['POST', '/api/auth/local/sign-in', 'public'],
    ['POST', '/api/sign-in', 'public'],
    ['POST', '/api/sign-out', 'public'],
    ['GET', '/api/invitations/abc', 'public'],
    ['HEAD', '/api/invitations/abc', 'public'],
    ['POST', '/api/invitations/abc/accept', 'session'],
    ['GET', '/api/sign-in', 'session'],
    ['GET', '/api/users/me', 'session'],
    ['POST', '/api/orgs', 'session'],
    ['GET', '/api/orgs/acme', 'member'],
    ['GET', '/api/orgs/acme/users', 'member'],
    ['DELETE', '/api/orgs/acme/users/1', 'member'],
    ['GET', '/api-v2/orgs/acme/settings', 'member'],
    ['GET', '/api/orgs/acme/sources/1/metrics', 'member'],
    // Defaults for a new source: a signed-in user, no organisation (nothing is stored).
    ['GET', '/api/sources/segment', 'session'],
    ['GET', '/api/t/snippet', 'session'],
    ['GET', '/api-v2/admin', 'staff'],
    ['PATCH', '/api-v2/admin/users/1', 'staff'],
    ['GET', '/api-v2/administrators', 'session'],
    ['GET', '/api/anything-new', 'session'],
    ['GET', '/api-v2/anything-new', 'session'],
  ])('%s %s → %s', (method, path, access) => {
    expect(accessFor(method, path)).toBe(access)
  })

  it('reads the organisation from the path', () => {
    expect(orgCodeOf('/api/orgs/acme-2/users')).toBe('acme-2')
    expect(orgCodeOf('/api-v2/orgs/acme')).toBe('acme')
    expect(orgCodeOf('/api/orgs')).toBeUndefined()
  })
})
