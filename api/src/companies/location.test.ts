import { describe, expect, it } from 'vitest'
import { contextPlace, countryName, ipPlaceText, locationOf, timeZoneCity } from './location.ts'

describe('locationOf', () => {
  const none = { city: '', region: '', country: '', tz: '' }
  it('prefers the context location, then the address’s place, then the time zone’s city', () => {
    expect(locationOf({ ...none, city: 'Lyon', country: 'France', tz: 'Europe/Paris' }, 'Paris, France')).toBe('Lyon, France')
    expect(locationOf({ ...none, region: 'Bavaria' })).toBe('Bavaria')
    expect(locationOf({ ...none, tz: 'America/Los_Angeles' }, 'Cupertino, United States')).toBe('Cupertino, United States')
    expect(locationOf({ ...none, tz: 'America/Argentina/Buenos_Aires' })).toBe('Buenos Aires')
    expect(locationOf(none)).toBeNull()
    expect(timeZoneCity('UTC')).toBeNull()
    expect(timeZoneCity('Etc/GMT+2')).toBeNull()
  })

  it('names countries given by their ISO code, in English', () => {
    expect(contextPlace({ city: 'Lyon', region: '', country: 'FR' })).toBe('Lyon, France')
    expect(contextPlace({ city: '', region: '', country: 'France' })).toBe('France')
    expect([countryName('US'), countryName('gb'), countryName('ZZ'), countryName(' Germany ')]).toEqual(['United States', 'United Kingdom', '', 'Germany'])
  })

  it('writes an address’s place as city (else region) and country', () => {
    expect(ipPlaceText({ city: 'Cupertino', region: 'California', country: 'US' })).toBe('Cupertino, United States')
    expect(ipPlaceText({ city: '', region: 'California', country: 'US' })).toBe('California, United States')
    expect(ipPlaceText({ city: '', region: '', country: 'DE' })).toBe('Germany')
    expect(ipPlaceText({ city: 'Cupertino', region: '', country: '' })).toBe('Cupertino')
    expect(ipPlaceText({ city: '', region: '', country: 'ZZ' })).toBeNull()
  })
})
