/**
 * Company logos come from a logo service looked up by domain (part 1 §2): the
 * address is FL0_LOGO_URL with {domain} replaced (server/src/config.ts holds
 * the default). The browser loads it, not fl0; the screen falls back to the
 * company's initials when no template is set, when the image fails, or when
 * third-party content is switched off (the disable-3rd-party toggle).
 */
export function logoUrlFor(template: string | undefined, domain: string): string | null {
  if (!template) return null
  return template.replaceAll('{domain}', encodeURIComponent(domain))
}
