import { useLayoutEffect, useState, type CSSProperties, type RefObject } from 'react'

interface Box {
  top: number
  bottom: number
  left: number
  right: number
}

/**
 * Where a floating panel goes beside its button, in viewport pixels: below
 * it, or above when there is more room there and not enough below; its left
 * edge on the button's, pulled back so the panel stays inside the window.
 * `maxHeight` is the room on the chosen side, for a panel that scrolls inside.
 */
function placePanel(anchor: Box, panel: { width: number; height: number }, viewport: { width: number; height: number }, gap = 4, margin = 8) {
  const below = viewport.height - anchor.bottom - gap - margin
  const above = anchor.top - gap - margin
  const up = panel.height > below && above > below
  const left = Math.max(margin, Math.min(anchor.left, viewport.width - panel.width - margin))
  return up
    ? { left, bottom: viewport.height - anchor.top + gap, maxHeight: Math.max(0, above) }
    : { left, top: anchor.bottom + gap, maxHeight: Math.max(0, below) }
}

/**
 * A panel's position fixed to the window beside its anchor, so it escapes any
 * scrolling or clipping container (the metric editor's form scrolls inside):
 * it follows the anchor as the page or a container scrolls or the window resizes.
 */
export function useAnchoredPanel(open: boolean, anchor: RefObject<HTMLElement | null>, panel: RefObject<HTMLElement | null>): CSSProperties {
  const [style, setStyle] = useState<CSSProperties>({ position: 'fixed', visibility: 'hidden' })
  useLayoutEffect(() => {
    if (!open) return
    const place = () => {
      const a = anchor.current?.getBoundingClientRect()
      const p = panel.current
      if (!a || !p) return
      const spot = placePanel(a, { width: p.offsetWidth, height: p.scrollHeight }, { width: window.innerWidth, height: window.innerHeight })
      setStyle({ position: 'fixed', ...spot })
    }
    place()
    // The panel's own content grows as its list loads: placed again then too.
    const grow = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(place)
    if (panel.current) grow?.observe(panel.current)
    window.addEventListener('scroll', place, true)
    window.addEventListener('resize', place)
    return () => {
      grow?.disconnect()
      window.removeEventListener('scroll', place, true)
      window.removeEventListener('resize', place)
    }
  }, [open, anchor, panel])
  return style
}
