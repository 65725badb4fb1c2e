import { describe, expect, it } from 'vitest'
import { parseCliArgs } from './args.ts'

const now = () => new Date('2026-05-01T10:00:00Z')

describe('parseCliArgs', () => {
  it('leaves sizes to the generator by default and ends now', () => {
    expect(parseCliArgs([], now)).toEqual({
      json: false,
      help: false,
      demo: { companies: undefined, people: undefined, days: undefined, seed: undefined, events: undefined, now: now() },
    })
  })

  it('reads sizes, seed, events, end and --json', () => {
    const args = parseCliArgs(['--companies', '20', '--people=100', '--days', '7', '--seed', '9', '--events', '1_000_000', '--end', '2026-04-30', '--json'], now)
    expect(args.json).toBe(true)
    expect(args.demo).toEqual({ companies: 20, people: 100, days: 7, seed: 9, events: 1_000_000, now: new Date('2026-04-30T23:59:59.999Z') })
    expect(parseCliArgs(['--end', '2026-04-30T12:00:00Z'], now).demo.now).toEqual(new Date('2026-04-30T12:00:00Z'))
  })

  it('refuses what it cannot use, naming the option', () => {
    expect(() => parseCliArgs(['--days', '0'], now)).toThrow(/--days/)
    expect(() => parseCliArgs(['--people', '-5'], now)).toThrow()
    expect(() => parseCliArgs(['--people', '1.5'], now)).toThrow(/--people/)
    expect(() => parseCliArgs(['--companies', '70000'], now)).toThrow(/--companies/)
    expect(() => parseCliArgs(['--end', 'yesterday'], now)).toThrow(/--end/)
    expect(() => parseCliArgs(['--size', '3'], now)).toThrow()
  })
})
