import { describe, expect, it } from 'vitest'
import { locationOf, timeZoneCity } from './location.ts'

describe('locationOf', () => {
  const none = { city: '', region: '', country: '', tz: '' }
  it('prefers the context location, then the time zone’s city', () => {
    expect(locationOf({ ...none, city: 'Lyon', country: 'France', tz: 'Europe/Paris' })).toBe('Lyon, France')
    expect(locationOf({ ...none, region: 'Bavaria' })).toBe('Bavaria')
    expect(locationOf({ ...none, tz: 'America/Argentina/Buenos_Aires' })).toBe('Buenos Aires')
    expect(locationOf(none)).toBeNull()
    expect(timeZoneCity('UTC')).toBeNull()
    expect(timeZoneCity('Etc/GMT+2')).toBeNull()
  })
})
