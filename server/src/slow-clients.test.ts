import { describe, expect, it } from 'vitest'
import { loadConfig } from './config.ts'
import { clientTimeouts, httpServerOptions } from './slow-clients.ts'

/** FL0_HEADERS_TIMEOUT_SECONDS, FL0_IDLE_TIMEOUT_SECONDS, FL0_REQUEST_TIMEOUT_SECONDS (README, configuration). */
describe('slow-client timeouts, from configuration', () => {
  it('default to 20 s for headers, 30 s idle, and no cap on a whole request', () => {
    const timeouts = clientTimeouts(loadConfig({}))
    expect(timeouts).toEqual({ headersMs: 20_000, idleMs: 30_000, requestMs: 0 })
    expect(httpServerOptions(timeouts)).toEqual({ headersTimeout: 20_000, requestTimeout: 0, connectionsCheckingInterval: 5_000 })
  })

  it('take fractions of a second, and a cap', () => {
    const config = loadConfig({ FL0_HEADERS_TIMEOUT_SECONDS: '0.5', FL0_IDLE_TIMEOUT_SECONDS: '1.5', FL0_REQUEST_TIMEOUT_SECONDS: '3600' })
    expect(clientTimeouts(config)).toEqual({ headersMs: 500, idleMs: 1_500, requestMs: 3_600_000 })
  })

  it('let a request cap shorter than the headers timeout bound the headers too (Node refuses the reverse)', () => {
    expect(httpServerOptions({ headersMs: 20_000, idleMs: 30_000, requestMs: 10_000 })).toMatchObject({ headersTimeout: 10_000, requestTimeout: 10_000 })
  })

  it.each([
    ['FL0_HEADERS_TIMEOUT_SECONDS', '0'],
    ['FL0_IDLE_TIMEOUT_SECONDS', '-1'],
    ['FL0_IDLE_TIMEOUT_SECONDS', 'soon'],
    ['FL0_REQUEST_TIMEOUT_SECONDS', '-5'],
  ])('refuse %s=%j', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`${name}:`))
  })
})
