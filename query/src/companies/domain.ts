/**
 * Company domains: the {company} of the company page's address, and the
 * e-mail domains that do not name a company.
 */

/** acme.com, sub.acme.co.uk, xn--bcher-kva.de: labels of letters, digits and hyphens, at least two. */
const DOMAIN = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/

/**
 * The domain a company is known by: lowercase, without scheme, path, port or a
 * leading "www." (www.acme.com and acme.com are one company). Undefined when
 * the text is not a domain.
 */
export function normalizeDomain(input: string): string | undefined {
  let d = input.trim().toLowerCase()
  d = d.replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
  d = d.split(/[/?#]/, 1)[0]!.replace(/:\d+$/, '').replace(/\.$/, '')
  if (d.startsWith('www.')) d = d.slice(4)
  return d.length <= 253 && DOMAIN.test(d) ? d : undefined
}

/**
 * Free-mail providers: an address at one of them says nothing about where its
 * owner works, so an identify with such an e-mail makes nobody a member of a
 * company (members.ts). Kept small on purpose: the world's large providers and
 * the big national ones of the markets fl0's users sell to. A provider missing
 * here only matters if someone opens a company page for the provider's own
 * domain; add it when that happens.
 */
export const FREE_MAIL_DOMAINS: ReadonlySet<string> = new Set([
  // Global
  'gmail.com', 'googlemail.com', 'outlook.com', 'hotmail.com', 'live.com', 'msn.com', 'yahoo.com', 'ymail.com', 'rocketmail.com',
  'icloud.com', 'me.com', 'mac.com', 'aol.com', 'proton.me', 'protonmail.com', 'pm.me', 'zoho.com', 'zohomail.com', 'fastmail.com',
  'hey.com', 'tutanota.com', 'tuta.io', 'mail.com', 'gmx.com', 'gmx.net', 'yandex.com', 'yandex.ru', 'mail.ru',
  // North America
  'comcast.net', 'verizon.net', 'att.net', 'sbcglobal.net', 'yahoo.ca', 'shaw.ca', 'rogers.com',
  // Europe
  'hotmail.co.uk', 'yahoo.co.uk', 'btinternet.com', 'sky.com', 'virginmedia.com', 'outlook.de', 'gmx.de', 'web.de', 't-online.de',
  'hotmail.de', 'yahoo.de', 'outlook.fr', 'hotmail.fr', 'yahoo.fr', 'orange.fr', 'wanadoo.fr', 'free.fr', 'sfr.fr', 'laposte.net',
  'ziggo.nl', 'kpnmail.nl', 'hotmail.nl', 'libero.it', 'hotmail.it', 'yahoo.it', 'hotmail.es', 'yahoo.es',
  // Asia-Pacific
  'bigpond.com', 'yahoo.com.au', 'yahoo.co.in', 'rediffmail.com', 'qq.com', '163.com', '126.com', 'naver.com', 'yahoo.co.jp',
])

export function isFreeMailDomain(domain: string): boolean {
  return FREE_MAIL_DOMAINS.has(domain)
}
