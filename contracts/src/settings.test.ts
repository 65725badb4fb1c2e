import { describe, expect, it } from 'vitest'
import { makeSaveSettingsSchema, saveSettingsSchema, timezoneList } from './settings.ts'
import { toFieldErrors } from './errors.ts'

describe('organisation settings', () => {
  it('lists the IANA zones with UTC first', () => {
    const zones = timezoneList()
    expect(zones[0]).toBe('UTC')
    expect(zones).toContain('Europe/Paris')
    expect(zones).toContain('America/New_York')
    expect(new Set(zones).size).toBe(zones.length)
  })

  it('trims company paths and drops the blank ones', () => {
    expect(saveSettingsSchema.parse({ timezone: 'Europe/Paris', companyPaths: ['  /pricing ', '', '   ', '/docs'] })).toEqual({
      timezone: 'Europe/Paris',
      companyPaths: ['/pricing', '/docs'],
    })
  })

  it('refuses a zone that is not on the list, naming the field', () => {
    const r = saveSettingsSchema.safeParse({ timezone: 'Mars/Olympus_Mons', companyPaths: [] })
    expect(toFieldErrors(r.error!)).toEqual([{ name: 'timezone', message: 'Timezone must be one of the listed time zones' }])
    expect(toFieldErrors(saveSettingsSchema.safeParse({ companyPaths: [] }).error!)).toEqual([{ name: 'timezone', message: 'Timezone must be provided' }])
  })

  it('checks against the list it is given', () => {
    const schema = makeSaveSettingsSchema(['UTC', 'Europe/Paris'])
    expect(schema.safeParse({ timezone: 'Europe/Paris' }).success).toBe(true)
    expect(schema.safeParse({ timezone: 'Asia/Tokyo' }).success).toBe(false)
  })

  it('names a bad company path by its index, and caps length and count', () => {
    expect(toFieldErrors(saveSettingsSchema.safeParse({ timezone: 'UTC', companyPaths: ['/a', 3] }).error!)).toEqual([
      { name: 'companyPaths.1', message: 'Company path must be text' },
    ])
    expect(toFieldErrors(saveSettingsSchema.safeParse({ timezone: 'UTC', companyPaths: ['x'.repeat(301)] }).error!)).toEqual([
      { name: 'companyPaths.0', message: 'Company path must be at most 300 characters' },
    ])
    expect(saveSettingsSchema.safeParse({ timezone: 'UTC', companyPaths: Array.from({ length: 101 }, (_, i) => `/p${i}`) }).success).toBe(false)
    expect(saveSettingsSchema.safeParse({ timezone: 'UTC', companyPaths: [...Array(101).fill(' '), '/only'] }).data?.companyPaths).toEqual(['/only'])
  })
})
