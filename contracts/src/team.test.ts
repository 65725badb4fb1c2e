import { describe, expect, it } from 'vitest'
import { inviteSchema, TEAM_TEXT } from './team.ts'
import { toFieldErrors } from './errors.ts'

describe('invite team member', () => {
  it.each([
    [{}, 'Email must be provided'],
    [{ invitee_email: '' }, 'Email must be provided'],
    [{ invitee_email: '   ' }, 'Email must be provided'],
    [{ invitee_email: `${'a'.repeat(290)}@example.com` }, 'Email must be at most 300 characters'],
    [{ invitee_email: 'not-an-address' }, 'Email must be a valid email address'],
    [{ invitee_email: 'a@b' }, 'Email must be a valid email address'],
    [{ invitee_email: 42 }, 'Email must be provided'],
  ])('%j → %s', (body, message) => {
    const r = inviteSchema.safeParse(body)
    expect(r.success).toBe(false)
    expect(toFieldErrors(r.error!)).toEqual([{ name: 'invitee_email', message }])
  })

  it('trims and lowercases a valid address', () => {
    expect(inviteSchema.parse({ invitee_email: ' Ann@Example.COM ' })).toEqual({ invitee_email: 'ann@example.com' })
  })

  it('words the screens exactly as the specification does', () => {
    expect(TEAM_TEXT.inviteSent('a@b.co')).toBe('A team invite email has been sent to a@b.co.')
    expect(TEAM_TEXT.removed('a@b.co')).toBe('Removed team member a@b.co successfully')
    expect(TEAM_TEXT.removeConfirm('a@b.co', 'acme')).toBe('Are you sure you want to remove the team member a@b.co from the organization acme?')
  })
})
