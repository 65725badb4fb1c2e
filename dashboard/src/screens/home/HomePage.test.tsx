import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { HomeSummary } from '@fl0/contracts/home'
import { routes } from '../../routes.tsx'
import { fakeServer } from '../../test/fakeServer.ts'
import { renderRoutes } from '../../test/render.tsx'

const HOME: HomeSummary = {
  from: '2026-02-23T09:00:00.000Z',
  to: '2026-03-02T09:00:00.000Z',
  people: {
    active: 1234,
    new: 2,
    top: [{ id: 'u/ada', name: 'Ada Lovelace', email: 'ada@acme.com', company: 'Acme Inc', companyDomain: 'acme.com', events: 3, lastSeen: '2026-03-02T08:00:00.000Z', isNew: true }],
  },
  companies: { active: 1, new: 0, top: [{ domain: 'acme.com', name: 'Acme Inc', people: 2, events: 4, isNew: false }] },
  pages: [{ path: '/pricing', url: 'https://acme.test/pricing', title: 'Pricing', views: 3, visitors: 2 }],
}

function server(home: HomeSummary) {
  const s = fakeServer()
  s.on('GET', '/api-v2/orgs/acme/home', { body: home })
  s.on('PATCH', '/api/users/me/preferences', { body: {} })
  return s
}

describe('the organisation home', () => {
  it("shows this week's counts, companies, people and pages, each linked", async () => {
    renderRoutes(routes, '/organizations/acme', { server: server(HOME) })
    const people = await screen.findByRole('region', { name: 'People this week' })
    expect(people.textContent).toBe('People1,2342 new since last week')
    expect(screen.getByRole('region', { name: 'Companies this week' }).textContent).toBe('Companies10 new since last week')
    const companies = within(screen.getByRole('region', { name: 'Companies' }))
    expect(companies.getByRole('link', { name: 'Acme Inc' }).getAttribute('href')).toBe('/organizations/acme/companies/acme.com')
    const list = within(screen.getByRole('region', { name: 'People' }))
    expect(list.getByRole('link', { name: 'Ada Lovelace' }).getAttribute('href')).toBe('/organizations/acme/people/users/u%2Fada')
    expect(list.getByRole('link', { name: 'Acme Inc' }).getAttribute('href')).toBe('/organizations/acme/companies/acme.com')
    expect(list.getByText('New')).toBeTruthy()
    expect(list.getByRole('link', { name: 'All people →' }).getAttribute('href')).toBe('/organizations/acme/people')
    const pages = within(screen.getByRole('region', { name: 'Top pages' }))
    expect(pages.getByRole('link', { name: '/pricing' }).getAttribute('href')).toBe('https://acme.test/pricing')
  })

  it('says so when nobody visited this week', async () => {
    renderRoutes(routes, '/organizations/acme', { server: server({ ...HOME, people: { active: 0, new: 0, top: [] }, companies: { active: 0, new: 0, top: [] }, pages: [] }) })
    expect(await screen.findByText('No identified person was active this week.')).toBeTruthy()
    expect(screen.getByText('No company was identified this week.')).toBeTruthy()
    expect(screen.getByText('No page was viewed this week.')).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Open Data sources →' }).getAttribute('href')).toBe('/organizations/acme/data-sources')
  })
})
