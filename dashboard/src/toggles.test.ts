import { describe, expect, it } from 'vitest'
import { readToggle, readToggles } from './toggles.ts'

describe('feature toggles', () => {
  it('reads fl0-<name>=true cookies, and nothing else', () => {
    expect(readToggles('fl0-ai=true; other=1; fl0-disable-3rd-party=true')).toEqual({ ai: true, disableThirdParty: true, metricsBreakdown: false, orgSettings: false })
    expect(readToggle('ai', 'fl0-ai=false')).toBe(false)
    expect(readToggle('ai', 'xfl0-ai=true')).toBe(false)
    expect(readToggle('metrics-breakdown', 'fl0-metrics-breakdown=true')).toBe(true)
    expect(readToggle('ai', '')).toBe(false)
  })

  it('reads document.cookie by default', () => {
    document.cookie = 'fl0-ai=true; path=/'
    expect(readToggle('ai')).toBe(true)
  })
})
