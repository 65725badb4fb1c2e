const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/

/**
 * Whether the text is a whole IPv4 or IPv6 address: the ip_to_company grid
 * applies its IP filter only then, so that the address being typed ('203.0.')
 * does not make the grid fail at every keystroke. IPv6 is checked by the URL
 * parser, which knows every form of it (compressed, IPv4-mapped).
 */
export function isIpAddress(text: string): boolean {
  if (IPV4.test(text)) return true
  if (!text.includes(':') || !/^[0-9a-fA-F:.]+$/.test(text)) return false
  try {
    new URL(`http://[${text}]/`)
    return true
  } catch {
    return false
  }
}
