import { useEffect, useRef, type RefObject } from 'react'
import type uPlot from 'uplot'
import 'uplot/dist/uPlot.min.css'
import { canDraw } from './axis.ts'

export interface UplotSize {
  /** The narrowest the canvas gets, whatever its box's width. */
  minWidth: number
  height: number
}

/**
 * Draws a uPlot chart into `box` for as long as the component is mounted:
 * built by `build` for the box's width, rebuilt when `key` changes, resized
 * as the box is. uPlot reads matchMedia as it loads, so it is imported only
 * where a canvas can draw (not in jsdom, where the box stays empty).
 */
export function useUplot(
  box: RefObject<HTMLDivElement | null>,
  key: string,
  build: (UPlot: typeof uPlot, width: number) => { opts: uPlot.Options; data: uPlot.AlignedData },
  size: UplotSize,
): void {
  // The latest build and size, read when the chart is (re)built: the key says when.
  const latest = useRef({ build, size })
  latest.current = { build, size }
  useEffect(() => {
    const el = box.current!
    if (!canDraw()) return
    let gone = false
    let plot: uPlot | undefined
    let resize: ResizeObserver | undefined
    void import('uplot').then(({ default: UPlot }) => {
      if (gone) return
      const { build: make, size: s } = latest.current
      const width = () => Math.max(el.clientWidth, s.minWidth)
      const { opts, data } = make(UPlot, width())
      plot = new UPlot(opts, data, el)
      resize = new ResizeObserver(() => plot?.setSize({ width: width(), height: s.height }))
      resize.observe(el)
    })
    return () => {
      gone = true
      resize?.disconnect()
      plot?.destroy()
    }
  }, [box, key])
}
