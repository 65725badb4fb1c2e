import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { METRIC_DEFAULTS, type StoredMetric } from '@fl0/contracts/metrics'
import { routes } from '../../routes.tsx'
import { metricsServer } from '../../test/metricsServer.ts'
import { renderRoutes } from '../../test/render.tsx'

const metric = (id: string, name: string, category: string, events: string[] = ['Signed Up']): StoredMetric => ({
  id,
  name,
  description: '',
  category,
  definition: { ...METRIC_DEFAULTS, events: events.map((e) => ({ name: e })) },
})

const groups = () =>
  screen.queryAllByRole('region').map((r) => [r.getAttribute('aria-label'), within(r).getAllByRole('link').map((a) => a.querySelector('span')?.textContent)])

describe('metrics list', () => {
  it("shows 'Metrics', 'Create metric...' to /metrics/new, the search box, and 'No metrics found' when there are none", async () => {
    const { router } = renderRoutes(routes, '/organizations/acme/metrics', { server: metricsServer() })
    expect(await screen.findByRole('heading', { level: 1, name: 'Metrics' }, { timeout: 5000 })).toBeTruthy()
    expect(await screen.findByText('No metrics found')).toBeTruthy()
    expect((screen.getByRole('searchbox') as HTMLInputElement).placeholder).toBe('Search metric by name...')
    fireEvent.click(screen.getByRole('link', { name: 'Create metric...' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/organizations/acme/metrics/new'))
    expect(await screen.findByRole('heading', { level: 1, name: 'New metric' }, { timeout: 5000 })).toBeTruthy()
  })

  it("groups metrics by category, marks an invalid one 'Metric properties are not set', and searches by name", async () => {
    const server = metricsServer([metric('a', 'Signups', 'growth'), metric('b', 'Upgrades', 'revenue', ['Plan Upgraded']), metric('c', 'Draft', 'growth', []), metric('d', 'Invites', 'other', ['Invite Sent'])])
    const { router } = renderRoutes(routes, '/organizations/acme/metrics', { server })
    await waitFor(() =>
      expect(groups()).toEqual([
        ['growth', ['Signups', 'Draft']],
        ['revenue', ['Upgrades']],
        ['other', ['Invites']],
      ]),
    )
    const draft = screen.getByRole('link', { name: /Draft/ })
    expect(within(draft).getByText('Metric properties are not set')).toBeTruthy()
    expect(within(screen.getByRole('link', { name: /Signups/ })).queryByText('Metric properties are not set')).toBeNull()

    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'UP' } })
    expect(groups()).toEqual([
      ['growth', ['Signups']],
      ['revenue', ['Upgrades']],
    ])
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'nothing like it' } })
    expect(screen.getByText('No metrics found')).toBeTruthy()
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: '' } })
    fireEvent.click(screen.getByRole('link', { name: /Upgrades/ }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/organizations/acme/metrics/b'))
    expect(await screen.findByRole('heading', { level: 1, name: 'Upgrades' }, { timeout: 5000 })).toBeTruthy()
  })
})
