/**
 * First-party cookies the way analytics.js keeps them: one year, SameSite=Lax,
 * on the widest domain the browser accepts, so that www.shop.example and
 * app.shop.example share one visitor.
 */
const YEAR = 31536000

/** Set once by useWidestDomain(); '' means a host-only cookie. */
let cookieDomain = ''

/**
 * Reads a cookie. analytics.js 1.x stored JSON-encoded strings ("%22id%22");
 * the quotes are dropped so that ids written by it carry over.
 */
export function getCookie(name: string): string | undefined {
  try {
    return decodeURIComponent(document.cookie.match('(?:^|; )' + name + '=([^;]+)')![1]).replace(/^"(.*)"$/, '$1')
  } catch (e) {}
}

/** null or undefined deletes the cookie. */
export function setCookie(name: string, value?: string | null, domain = cookieDomain): void {
  try {
    document.cookie = `${name}=${encodeURIComponent(value ?? '')};max-age=${value == null ? 0 : YEAR};path=/;samesite=lax${domain ? ';domain=' + domain : ''}${location.protocol == 'https:' ? ';secure' : ''}`
  } catch (e) {}
}

/**
 * The widest domain of `host` that `accepts` a cookie, tried from the top
 * down: browsers refuse cookies on public suffixes (com, co.uk, github.io),
 * so the first level that takes one is the site's registrable domain. This
 * asks the browser rather than shipping the public suffix list. Where no
 * level takes one (localhost in some browsers), cookies are host-only: ''.
 */
export function widestDomain(host: string, accepts: (domain: string) => boolean): string {
  const parts = host.split('.')
  for (let i = parts.length; i--; ) {
    const domain = parts.slice(i).join('.')
    if (accepts(domain)) return domain
  }
  return ''
}

/** Finds this page's widest cookie domain with a probe cookie and uses it from now on. */
export function useWidestDomain(): void {
  cookieDomain = widestDomain(location.hostname, (domain) => {
    setCookie('fl0_tld', '1', domain)
    const ok = getCookie('fl0_tld') == '1'
    setCookie('fl0_tld', null, domain)
    return ok
  })
}
