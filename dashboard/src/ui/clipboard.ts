/**
 * Copies text to the clipboard. The Clipboard API exists only in secure
 * contexts (https, or localhost); a self-hosted fl0 reached over plain http on
 * a LAN address has none, so the older selection-and-copy path is the fallback.
 */
export async function copyText(text: string): Promise<void> {
  if (typeof navigator !== 'undefined' && navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(text)
      return
    } catch {
      // Refused (no permission, page not focused): try the fallback below.
    }
  }
  const area = document.createElement('textarea')
  area.value = text
  area.setAttribute('readonly', '')
  area.style.position = 'fixed'
  area.style.opacity = '0'
  document.body.appendChild(area)
  area.select()
  const copied = typeof document.execCommand === 'function' && document.execCommand('copy')
  area.remove()
  if (!copied) throw new Error('The browser did not allow copying; select the text and copy it')
}
