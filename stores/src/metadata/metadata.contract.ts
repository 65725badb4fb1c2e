import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrateMetadata } from './migrate.ts'
import { createOrganisation, findOrganisationByUrlCode } from './organisations.ts'
import { createSource, deleteSource, findSourceByWriteKey, findWebhookSource, getSource, listSources, sourceIdentifiersInUse, updateSource } from './sources.ts'
import { newId, newWriteKey } from './ids.ts'
import type { Sql } from './sql.ts'
import { createAudience, deleteAudience, findAudience, findAudiences, listAudiences, updateAudience } from './audiences.ts'
import { getFeatureSelections, saveFeatureSelections } from './feature-selections.ts'
import { createUser, findUserByEmail, setStaff } from './users.ts'
import { createSession, deleteSession, findSessionUser } from './sessions.ts'
import { findMembership, listUserOrgs, removeMembership, addMembership } from './memberships.ts'
import { findInvitationByTokenHash, listOpenInvitations, markInvitationAccepted, upsertInvitation } from './invitations.ts'
import { getOrgSettings, saveOrgSettings } from './org-settings.ts'
import { getPreferences, savePreferences } from './preferences.ts'
import { getOrCreateSigningKey } from './signing-keys.ts'
import { createFeature, deleteFeature, DUPLICATE_NAME, findFeature, listFeatures, updateFeature } from './features.ts'
import { createMetric, deleteMetric, findMetric, listMetrics, updateMetric } from './metrics.ts'
import { createReport, deleteReport, findReport, listReports, UNKNOWN_METRIC, updateReport } from './reports.ts'
import { listProfileTraits, saveProfileTrait } from './profile-traits.ts'

/**
 * The metadata store contract, run against PGlite always and PostgreSQL under
 * `npm run test:cluster`. `openSql` must give an empty database.
 */
export function metadataContract(name: string, openSql: () => Promise<Sql>) {
  describe(`metadata contract: ${name}`, () => {
    let sql: Sql
    beforeAll(async () => {
      sql = await openSql()
    })
    afterAll(async () => {
      await sql?.close()
    })

    it('migrates from empty, and a second run applies nothing', async () => {
      expect(await migrateMetadata(sql)).toContain('0001_organisations_and_sources')
      expect(await migrateMetadata(sql)).toEqual([])
    })

    it('makes unique, URL-safe url codes from organisation names', async () => {
      const a = await createOrganisation(sql, 'Acme Corp')
      const b = await createOrganisation(sql, 'acme corp')
      const c = await createOrganisation(sql, '   ')
      expect(a.url_code).toBe('acme-corp')
      expect(b.url_code).toBe('acme-corp-2')
      expect(c.url_code).toMatch(/^org(-\d+)?$/)
      expect(await findOrganisationByUrlCode(sql, 'acme-corp-2')).toEqual(b)
    })

    it('gives concurrent creations of one name distinct url codes', async () => {
      const orgs = await Promise.all(Array.from({ length: 5 }, () => createOrganisation(sql, 'Race Co')))
      expect(new Set(orgs.map((o) => o.url_code)).size).toBe(5)
      expect(orgs.map((o) => o.url_code).sort()).toEqual(['race-co', 'race-co-2', 'race-co-3', 'race-co-4', 'race-co-5'])
    })

    it('finds a source by its write key until it is deleted', async () => {
      const org = await createOrganisation(sql, 'Keys')
      const s = await createSource(sql, { orgId: org.id, type: 'snippet', name: 'js-snippet', url: 'example.com' })
      expect(s.write_key).toMatch(/^[A-Za-z0-9_-]{32}$/)
      expect(await findSourceByWriteKey(sql, s.write_key)).toEqual(s)
      expect((await listSources(sql, org.id)).map((x) => x.id)).toEqual([s.id])
      const other = await createOrganisation(sql, 'Other')
      expect(await deleteSource(sql, other.id, s.id)).toBeUndefined()
      expect(await deleteSource(sql, org.id, s.id)).toEqual(s)
      expect(await findSourceByWriteKey(sql, s.write_key)).toBeUndefined()
    })

    it('reads one source within its organisation only, and updates its name and domain', async () => {
      const org = await createOrganisation(sql, 'Reads')
      const other = await createOrganisation(sql, 'Reads Elsewhere')
      const s = await createSource(sql, { orgId: org.id, type: 'snippet', name: 'site', url: 'a.example.com' })
      expect(await getSource(sql, org.id, s.id)).toEqual(s)
      expect(await getSource(sql, other.id, s.id)).toBeUndefined()
      expect(await updateSource(sql, other.id, s.id, { name: 'stolen' })).toBeUndefined()
      expect(await updateSource(sql, org.id, s.id, { name: 'renamed' })).toEqual({ ...s, name: 'renamed' })
      expect(await updateSource(sql, org.id, s.id, { url: 'b.example.com' })).toEqual({ ...s, name: 'renamed', url: 'b.example.com' })
    })

    it('keeps the id and write key of a deleted source retired: never free again', async () => {
      const org = await createOrganisation(sql, 'Retire')
      const id = newId()
      const writeKey = newWriteKey()
      expect(await sourceIdentifiersInUse(sql, { id, writeKey })).toEqual({ id: false, writeKey: false })
      const s = await createSource(sql, { orgId: org.id, type: 'segment', name: 'segment', id, writeKey })
      expect(s).toMatchObject({ id, write_key: writeKey })
      expect(await sourceIdentifiersInUse(sql, { id, writeKey: newWriteKey() })).toEqual({ id: true, writeKey: false })
      expect(await sourceIdentifiersInUse(sql, { writeKey })).toEqual({ id: false, writeKey: true })
      await deleteSource(sql, org.id, id)
      expect(await getSource(sql, org.id, id)).toBeUndefined()
      expect(await sourceIdentifiersInUse(sql, { id, writeKey })).toEqual({ id: true, writeKey: true })
      // A second delete finds nothing and leaves the retirement as it was.
      expect(await deleteSource(sql, org.id, id)).toBeUndefined()
      expect(await sourceIdentifiersInUse(sql, { id, writeKey })).toEqual({ id: true, writeKey: true })
    })

    it('rolls a failed transaction back', async () => {
      const org = await createOrganisation(sql, 'Tx')
      await expect(
        sql.transaction(async (tx) => {
          await createSource(tx, { orgId: org.id, type: 'segment', name: 'segment' })
          throw new Error('boom')
        }),
      ).rejects.toThrow('boom')
      expect(await listSources(sql, org.id)).toEqual([])
    })

    it('refuses a source of an unknown type', async () => {
      const org = await createOrganisation(sql, 'Types')
      await expect(createSource(sql, { orgId: org.id, type: 'ftp' as never, name: 'x' })).rejects.toThrow()
    })

    it('gives each Segment source a webhook secret of its own, found by the source id until the source is deleted', async () => {
      const org = await createOrganisation(sql, 'Hooks')
      const [a, b] = [await createSource(sql, { orgId: org.id, type: 'segment', name: 'a' }), await createSource(sql, { orgId: org.id, type: 'segment', name: 'b' })]
      const site = await createSource(sql, { orgId: org.id, type: 'snippet', name: 'site', url: 'hooks.example.com' })
      expect(a.webhook_secret).toMatch(/^[0-9a-f]{64}$/)
      expect(b.webhook_secret).not.toBe(a.webhook_secret)
      expect(site.webhook_secret).toBeNull()
      expect(await getSource(sql, org.id, a.id)).toEqual(a)
      expect(await findWebhookSource(sql, a.id)).toEqual({ id: a.id, org_id: org.id, webhook_secret: a.webhook_secret })
      // A snippet source has no webhook; nor has a source that does not exist.
      expect(await findWebhookSource(sql, site.id)).toBeUndefined()
      expect(await findWebhookSource(sql, newId())).toBeUndefined()
      // Renaming keeps the secret; deleting ends the webhook.
      expect((await updateSource(sql, org.id, a.id, { name: 'renamed' }))?.webhook_secret).toBe(a.webhook_secret)
      await deleteSource(sql, org.id, a.id)
      expect(await findWebhookSource(sql, a.id)).toBeUndefined()
      // Only Segment sources have one, and each of them has one.
      await expect(sql.query("UPDATE sources SET webhook_secret = NULL WHERE id = $1", [b.id])).rejects.toThrow()
      await expect(sql.query("UPDATE sources SET webhook_secret = 'x' WHERE id = $1", [site.id])).rejects.toThrow()
    })
    it('makes exactly one of the first accounts staff, even when they arrive at once', async () => {
      const users = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((n) => createUser(sql, { email: `${n}@Staff.test`, name: n })))
      expect(users.filter((u) => u.is_staff)).toHaveLength(1)
      // Organisations made before anyone signed in (earlier tests here; `npm run demo` on a
      // fresh install) have no member: the first account adopts them as admin, and only it.
      const first = users.find((u) => u.is_staff)!
      expect((await listUserOrgs(sql, first.id)).map((o) => [o.url_code, o.role])).toContainEqual(['acme-corp', 'admin'])
      for (const u of users.filter((u) => !u.is_staff)) expect(await listUserOrgs(sql, u.id)).toEqual([])
      expect(users.map((u) => u.email).sort()).toEqual(['a@staff.test', 'b@staff.test', 'c@staff.test', 'd@staff.test', 'e@staff.test'])
      await expect(createUser(sql, { email: 'A@staff.test', name: 'again' })).rejects.toMatchObject({ code: '23505' })
      const staff = users.find((u) => u.is_staff)!
      expect(await setStaff(sql, staff.id, false)).toBe('last-staff')
      const other = users.find((u) => !u.is_staff)!
      expect(await setStaff(sql, other.id, true)).toMatchObject({ id: other.id, is_staff: true })
      expect(await setStaff(sql, staff.id, false)).toMatchObject({ is_staff: false })
    })

    it('finds a session until it expires or is deleted', async () => {
      const user = await createUser(sql, { email: 'session@x.test', name: 's' })
      const expiresAt = new Date('2030-01-01T00:00:00Z')
      await createSession(sql, { id: 'hash-1', userId: user.id, expiresAt })
      expect(await findSessionUser(sql, 'hash-1', new Date('2029-12-31T23:59:59Z'))).toEqual(user)
      expect(await findSessionUser(sql, 'hash-1', expiresAt)).toBeUndefined()
      await deleteSession(sql, 'hash-1')
      expect(await findSessionUser(sql, 'hash-1', new Date('2029-01-01T00:00:00Z'))).toBeUndefined()
    })

    it('gives an organisation its creator as admin, and keeps its last admin', async () => {
      const ann = await createUser(sql, { email: 'ann@members.test', name: 'Ann' })
      const bob = await createUser(sql, { email: 'bob@members.test', name: 'Bob' })
      const org = await createOrganisation(sql, 'Members', { adminUserId: ann.id })
      expect(await findMembership(sql, org.url_code, ann.id)).toEqual({ org, role: 'admin' })
      expect(await findMembership(sql, org.url_code, bob.id)).toBeUndefined()
      expect(await findMembership(sql, 'no-such-org', ann.id)).toBeUndefined()
      await addMembership(sql, { orgId: org.id, userId: bob.id, role: 'member' })
      expect((await listUserOrgs(sql, bob.id)).map((o) => [o.url_code, o.role])).toEqual([[org.url_code, 'member']])
      expect(await removeMembership(sql, org.id, ann.id)).toBe('last-admin')
      expect(await removeMembership(sql, org.id, bob.id)).toMatchObject({ user_id: bob.id, role: 'member' })
      expect(await removeMembership(sql, org.id, bob.id)).toBeUndefined()
    })

    it('keeps one open invitation per address, renewed in place, and a new one after acceptance', async () => {
      const ann = await createUser(sql, { email: 'ann@invites.test', name: 'Ann' })
      const org = await createOrganisation(sql, 'Invites', { adminUserId: ann.id })
      const now = new Date('2026-03-01T00:00:00Z')
      const expiresAt = new Date('2026-03-08T00:00:00Z')
      const first = await upsertInvitation(sql, { orgId: org.id, email: 'Cy@x.test', tokenHash: 't1', invitedBy: ann.id, now, expiresAt })
      const renewed = await upsertInvitation(sql, { orgId: org.id, email: 'cy@x.test', tokenHash: 't2', invitedBy: ann.id, now, expiresAt: new Date('2026-03-09T00:00:00Z') })
      expect(renewed.id).toBe(first.id)
      expect(renewed.expires_at).toEqual(new Date('2026-03-09T00:00:00Z'))
      expect(await findInvitationByTokenHash(sql, 't1')).toBeUndefined()
      expect(await findInvitationByTokenHash(sql, 't2')).toMatchObject({ id: first.id, email: 'cy@x.test', organization: org })
      expect(await markInvitationAccepted(sql, { id: first.id, userId: ann.id, now })).toBe(true)
      expect(await markInvitationAccepted(sql, { id: first.id, userId: ann.id, now })).toBe(false)
      expect(await listOpenInvitations(sql, org.id)).toEqual([])
      const next = await upsertInvitation(sql, { orgId: org.id, email: 'cy@x.test', tokenHash: 't3', invitedBy: ann.id, now, expiresAt })
      expect(next.id).not.toBe(first.id)
    })

    it('keeps settings and preferences, with defaults before the first save', async () => {
      const org = await createOrganisation(sql, 'Settings')
      expect(await getOrgSettings(sql, org.id)).toEqual({ timezone: 'UTC', company_paths: [] })
      await saveOrgSettings(sql, org.id, { timezone: 'Asia/Tokyo', company_paths: ['/a', '/b'] })
      expect(await getOrgSettings(sql, org.id)).toEqual({ timezone: 'Asia/Tokyo', company_paths: ['/a', '/b'] })

      const user = await createUser(sql, { email: 'prefs@x.test', name: 'p' })
      expect(await getPreferences(sql, user.id)).toEqual({ is_menu_collapsed: false, default_org_url_code: null })
      await savePreferences(sql, user.id, { default_org_url_code: 'settings' })
      expect(await savePreferences(sql, user.id, { is_menu_collapsed: true })).toEqual({ is_menu_collapsed: true, default_org_url_code: 'settings' })
      expect(await savePreferences(sql, user.id, { default_org_url_code: null })).toEqual({ is_menu_collapsed: true, default_org_url_code: null })
      expect(await findUserByEmail(sql, 'PREFS@x.test')).toEqual(user)
    })

    it('makes one signing key per purpose, whoever asks first', async () => {
      let made = 0
      const make = async () => ({ kid: `k${++made}`, alg: 'ES256', private_jwk: { d: String(made) }, public_jwk: { x: String(made) } })
      const keys = await Promise.all([1, 2, 3].map(() => getOrCreateSigningKey(sql, 'test', make)))
      expect(new Set(keys.map((k) => k.kid)).size).toBe(1)
      expect(await getOrCreateSigningKey(sql, 'test', make)).toEqual(keys[0])
    })

    it('keeps a feature with its events in order, within its organisation only', async () => {
      const org = await createOrganisation(sql, 'Features')
      const other = await createOrganisation(sql, 'Features Elsewhere')
      const f = await createFeature(sql, { orgId: org.id, name: 'Checkout', events: ['Order Completed', 'Cart Viewed', 'Order Completed'] })
      expect(f).toMatchObject({ org_id: org.id, name: 'Checkout', events: ['Order Completed', 'Cart Viewed'] })
      const id = (f as { id: string }).id
      expect(await findFeature(sql, org.id, id)).toEqual(f)
      expect(await findFeature(sql, other.id, id)).toBeUndefined()
      await createFeature(sql, { orgId: org.id, name: 'alerts', events: [] })
      expect((await listFeatures(sql, org.id)).map((x) => x.name)).toEqual(['alerts', 'Checkout'])
      expect(await listFeatures(sql, other.id)).toEqual([])

      expect(await updateFeature(sql, other.id, id, { name: 'Stolen' })).toBeUndefined()
      expect(await updateFeature(sql, org.id, id, { events: ['Cart Viewed', 'Payment Entered'] })).toEqual({ ...(f as object), events: ['Cart Viewed', 'Payment Entered'] })
      expect(await updateFeature(sql, org.id, id, { name: 'Purchase' })).toMatchObject({ name: 'Purchase', events: ['Cart Viewed', 'Payment Entered'] })
      expect(await updateFeature(sql, org.id, id, { events: [] })).toMatchObject({ name: 'Purchase', events: [] })

      expect(await deleteFeature(sql, other.id, id)).toBeUndefined()
      expect(await deleteFeature(sql, org.id, id)).toEqual({ id, name: 'Purchase' })
      expect(await findFeature(sql, org.id, id)).toBeUndefined()
      expect(await sql.query('SELECT * FROM feature_events WHERE feature_id = $1', [id])).toEqual([])
    })

    it('refuses a second feature of one name in an organisation, ignoring case, and leaves nothing half-written', async () => {
      const org = await createOrganisation(sql, 'Feature Names')
      const other = await createOrganisation(sql, 'Feature Names Elsewhere')
      const first = (await createFeature(sql, { orgId: org.id, name: 'Search', events: ['Search Performed'] })) as { id: string }
      expect(await createFeature(sql, { orgId: org.id, name: 'SEARCH', events: ['x'] })).toBe(DUPLICATE_NAME)
      expect(await createFeature(sql, { orgId: other.id, name: 'Search', events: [] })).toMatchObject({ name: 'Search' })
      const second = (await createFeature(sql, { orgId: org.id, name: 'Export', events: ['Export Downloaded'] })) as { id: string }
      expect(await updateFeature(sql, org.id, second.id, { name: 'search', events: ['changed'] })).toBe(DUPLICATE_NAME)
      expect(await findFeature(sql, org.id, second.id)).toMatchObject({ name: 'Export', events: ['Export Downloaded'] })
      // Renaming a feature to its own name in another case is no clash.
      expect(await updateFeature(sql, org.id, first.id, { name: 'search' })).toMatchObject({ name: 'search', events: ['Search Performed'] })
      expect((await listFeatures(sql, org.id)).map((x) => x.name)).toEqual(['Export', 'search'])
    })
    it('keeps metrics with their definitions as saved, by category and name, within their organisation only', async () => {
      const org = await createOrganisation(sql, 'Metrics')
      const other = await createOrganisation(sql, 'Metrics Elsewhere')
      const definition = { events: [{ name: 'Signed Up', property: { path: "plan's \"tier\"", operation: 'is', value: 'pro' } }], operation: 'ordered', extra: [1, null] }
      const m = await createMetric(sql, { orgId: org.id, name: 'Sign-ups', description: 'New accounts', category: 'growth', definition })
      expect(m).toEqual({ id: m.id, org_id: org.id, name: 'Sign-ups', description: 'New accounts', category: 'growth', definition })
      expect(await findMetric(sql, org.id, m.id)).toEqual(m)
      expect(await findMetric(sql, other.id, m.id)).toBeUndefined()
      await createMetric(sql, { orgId: org.id, name: 'active users', description: '', category: 'growth', definition: {} })
      await createMetric(sql, { orgId: org.id, name: 'Churn', description: '', category: 'other', definition: {} })
      expect((await listMetrics(sql, org.id)).map((x) => [x.category, x.name])).toEqual([['growth', 'active users'], ['growth', 'Sign-ups'], ['other', 'Churn']])
      expect(await listMetrics(sql, other.id)).toEqual([])

      const changes = { name: 'Signups', description: '', category: 'other', definition: { isAnyEvent: true } }
      expect(await updateMetric(sql, other.id, m.id, changes)).toBeUndefined()
      expect(await updateMetric(sql, org.id, m.id, changes)).toEqual({ id: m.id, org_id: org.id, ...changes })
      expect(await findMetric(sql, org.id, m.id)).toEqual({ id: m.id, org_id: org.id, ...changes })

      expect(await deleteMetric(sql, other.id, m.id)).toBeUndefined()
      expect(await deleteMetric(sql, org.id, m.id)).toEqual({ id: m.id, name: 'Signups' })
      expect(await findMetric(sql, org.id, m.id)).toBeUndefined()
    })

    it('keeps each organisation\'s feature selections, replaced whole on every save, in the order sent', async () => {
      const org = await createOrganisation(sql, 'Selections')
      const other = await createOrganisation(sql, 'Selections Elsewhere')
      expect(await getFeatureSelections(sql, org.id)).toEqual({ excludedEvents: [], includedProperties: [] })
      const first = {
        excludedEvents: ['Page Scrolled', "It's \"quoted\"", 'Page Scrolled'],
        includedProperties: [
          { event: 'Order Completed', property: 'total' },
          { event: 'Order Completed', property: 'shipping.method' },
          { event: 'Order Completed', property: 'total' },
        ],
      }
      expect(await saveFeatureSelections(sql, org.id, first)).toEqual({
        excludedEvents: ['Page Scrolled', "It's \"quoted\""],
        includedProperties: [
          { event: 'Order Completed', property: 'total' },
          { event: 'Order Completed', property: 'shipping.method' },
        ],
      })
      expect(await getFeatureSelections(sql, other.id)).toEqual({ excludedEvents: [], includedProperties: [] })
      const second = { excludedEvents: [], includedProperties: [{ event: 'Signed Up', property: 'plan' }] }
      expect(await saveFeatureSelections(sql, org.id, second)).toEqual(second)
      // Saves at once follow one another: the last one stands, nothing half-written.
      const saves = Array.from({ length: 4 }, (_, i) => ({ excludedEvents: [`E${i}`], includedProperties: [{ event: 'X', property: `p${i}` }] }))
      await Promise.all(saves.map((s) => saveFeatureSelections(sql, org.id, s)))
      const now = await getFeatureSelections(sql, org.id)
      expect(saves).toContainEqual(now)
    })

    it('keeps reports with their metrics in order, counted in the list, within their organisation only', async () => {
      const org = await createOrganisation(sql, 'Reports')
      const other = await createOrganisation(sql, 'Reports Elsewhere')
      const metric = (orgId: string, name: string) => createMetric(sql, { orgId, name, description: '', category: 'other', definition: {} })
      const [a, b, c] = [await metric(org.id, 'A'), await metric(org.id, 'B'), await metric(org.id, 'C')]
      const theirs = await metric(other.id, 'Theirs')

      const r = await createReport(sql, { orgId: org.id, name: 'Growth', description: 'Weekly', metricIds: [b.id, a.id, b.id] })
      expect(r).toMatchObject({ org_id: org.id, name: 'Growth', description: 'Weekly', metrics: [b.id, a.id] })
      const id = (r as { id: string }).id
      expect(Date.parse((r as { updated_date: string }).updated_date)).not.toBeNaN()
      expect(await findReport(sql, org.id, id)).toEqual(r)
      expect(await findReport(sql, other.id, id)).toBeUndefined()
      const empty = await createReport(sql, { orgId: org.id, name: 'Empty', description: '', metricIds: [] })
      expect((await listReports(sql, org.id)).map((x) => [x.name, x.metric_count])).toEqual([['Empty', 0], ['Growth', 2]])
      expect(await listReports(sql, other.id)).toEqual([])

      // Another organisation's metric, or one that does not exist: nothing is written.
      expect(await createReport(sql, { orgId: org.id, name: 'Stolen', description: '', metricIds: [a.id, theirs.id] })).toBe(UNKNOWN_METRIC)
      expect(await updateReport(sql, org.id, id, { name: 'Renamed', description: '', metricIds: [c.id, 'no-such-metric'] })).toBe(UNKNOWN_METRIC)
      expect(await findReport(sql, org.id, id)).toMatchObject({ name: 'Growth', metrics: [b.id, a.id] })
      expect((await listReports(sql, org.id)).map((x) => x.name)).toEqual(['Empty', 'Growth'])

      // Name and description alone leave the metrics; a list replaces them; the changed report comes first.
      expect(await updateReport(sql, other.id, id, { name: 'Mine', description: '' })).toBeUndefined()
      expect(await updateReport(sql, org.id, id, { name: 'Growth 2', description: '' })).toMatchObject({ name: 'Growth 2', description: '', metrics: [b.id, a.id] })
      expect(await updateReport(sql, org.id, id, { name: 'Growth 2', description: 'd', metricIds: [c.id, a.id] })).toMatchObject({ metrics: [c.id, a.id] })
      expect((await listReports(sql, org.id)).map((x) => [x.name, x.metric_count])).toEqual([['Growth 2', 2], ['Empty', 0]])

      // A deleted metric leaves every report it was in.
      await deleteMetric(sql, org.id, c.id)
      expect(await findReport(sql, org.id, id)).toMatchObject({ metrics: [a.id] })
      expect((await listReports(sql, org.id))[0]).toMatchObject({ name: 'Growth 2', metric_count: 1 })

      expect(await deleteReport(sql, other.id, id)).toBeUndefined()
      expect(await deleteReport(sql, org.id, id)).toEqual({ id, name: 'Growth 2' })
      expect(await findReport(sql, org.id, id)).toBeUndefined()
      expect(await sql.query('SELECT * FROM report_metrics WHERE report_id = $1', [id])).toEqual([])
      expect(await findMetric(sql, org.id, a.id)).toMatchObject({ name: 'A' })
      expect((await listReports(sql, org.id)).map((x) => x.id)).toEqual([(empty as { id: string }).id])
    })
    it('keeps each organisation\'s profile trait choices per profile type, the last choice standing, up to a cap', async () => {
      const org = await createOrganisation(sql, 'Profile Traits')
      const other = await createOrganisation(sql, 'Profile Traits Elsewhere')
      expect(await listProfileTraits(sql, org.id, 'company')).toEqual([])
      expect(await saveProfileTrait(sql, org.id, 'company', { name: 'industry', hidden: true }, 3)).toEqual([{ name: 'industry', hidden: true }])
      expect(await saveProfileTrait(sql, org.id, 'company', { name: "it's \"quoted\"", hidden: false }, 3)).toEqual([
        { name: 'industry', hidden: true },
        { name: "it's \"quoted\"", hidden: false },
      ])
      expect(await saveProfileTrait(sql, org.id, 'company', { name: 'industry', hidden: false }, 3)).toContainEqual({ name: 'industry', hidden: false })
      // Company and user choices are apart, and another organisation sees none of them.
      expect(await listProfileTraits(sql, org.id, 'user')).toEqual([])
      expect(await listProfileTraits(sql, other.id, 'company')).toEqual([])
      await saveProfileTrait(sql, org.id, 'user', { name: 'industry', hidden: true }, 3)
      expect(await listProfileTraits(sql, org.id, 'user')).toEqual([{ name: 'industry', hidden: true }])
      // The cap: a third name fits, a fourth is refused, a known name still changes.
      expect(await saveProfileTrait(sql, org.id, 'company', { name: 'plan', hidden: false }, 3)).toHaveLength(3)
      expect(await saveProfileTrait(sql, org.id, 'company', { name: 'country', hidden: false }, 3)).toBe('too-many')
      expect(await saveProfileTrait(sql, org.id, 'company', { name: 'plan', hidden: true }, 3)).toContainEqual({ name: 'plan', hidden: true })
      // New names at once cannot pass the cap together.
      const more = await Promise.all(['a', 'b', 'c'].map((name) => saveProfileTrait(sql, other.id, 'company', { name, hidden: false }, 2)))
      expect(more.filter((r) => r === 'too-many')).toHaveLength(1)
      expect(await listProfileTraits(sql, other.id, 'company')).toHaveLength(2)
    })
    it('keeps audiences with their filters as saved, by name, within their organisation only', async () => {
      const org = await createOrganisation(sql, 'Audiences')
      const other = await createOrganisation(sql, 'Audiences Elsewhere')
      const empty = { match_aggregation: 'and', matches: [], action_aggregation: 'and', actions: [] }
      const a = await createAudience(sql, { orgId: org.id, name: 'Trials', description: 'On a trial' })
      expect(a).toEqual({ id: a.id, org_id: org.id, name: 'Trials', description: 'On a trial', filters: empty })
      expect(await findAudience(sql, org.id, a.id)).toEqual(a)
      expect(await findAudience(sql, other.id, a.id)).toBeUndefined()
      const filters = { match_aggregation: 'or', matches: [{ kind: 'user', trait: "plan's \"tier\"", string_op: 'is', value: 'pro' }], action_aggregation: 'and', actions: [] }
      const b = await createAudience(sql, { orgId: org.id, name: 'active', description: '', filters })
      expect(b.filters).toEqual(filters)
      expect((await listAudiences(sql, org.id)).map((x) => x.name)).toEqual(['active', 'Trials'])
      expect(await listAudiences(sql, other.id)).toEqual([])
      expect((await findAudiences(sql, org.id, [a.id, b.id, 'no-such-id', a.id])).map((x) => x.id).sort()).toEqual([a.id, b.id].sort())
      expect(await findAudiences(sql, other.id, [a.id])).toEqual([])

      // What is given changes; what is left out stays.
      expect(await updateAudience(sql, other.id, a.id, { name: 'stolen' })).toBeUndefined()
      expect(await updateAudience(sql, org.id, a.id, { filters })).toEqual({ ...a, filters })
      expect(await updateAudience(sql, org.id, a.id, { name: 'Trial users', description: '' })).toEqual({ ...a, name: 'Trial users', description: '', filters })

      expect(await deleteAudience(sql, other.id, a.id)).toBeUndefined()
      expect(await deleteAudience(sql, org.id, a.id)).toEqual({ id: a.id, name: 'Trial users' })
      expect(await findAudience(sql, org.id, a.id)).toBeUndefined()
    })
  })
}
