/**
 * Feature toggles: cookies named fl0-<name> with the value true (part 1 §6,
 * part 2 §6). Read at render time; a changed cookie takes effect on the next
 * page load, as the cookie is set outside the app.
 *
 * org-settings is part 3's unnamed "feature flag" in front of the timezone and
 * company paths on the settings page, read the same way as the others.
 */
export type Toggle = 'ai' | 'disable-3rd-party' | 'metrics-breakdown' | 'org-settings'

export function readToggle(name: Toggle, cookie: string = typeof document === 'undefined' ? '' : document.cookie): boolean {
  return cookie.split(';').some((part) => {
    const [key, ...value] = part.trim().split('=')
    return key === `fl0-${name}` && decodeURIComponent(value.join('=')) === 'true'
  })
}

export function readToggles(cookie?: string) {
  return {
    ai: readToggle('ai', cookie),
    disableThirdParty: readToggle('disable-3rd-party', cookie),
    metricsBreakdown: readToggle('metrics-breakdown', cookie),
    orgSettings: readToggle('org-settings', cookie),
  }
}
export type Toggles = ReturnType<typeof readToggles>
