import { describe, expect, it } from 'vitest'
import { CATCH_ALL, PALETTE, colorOf, seriesColor } from './palette.ts'

/** sRGB hex to OKLab (Björn Ottosson): distances there track how different two colours look. */
function oklab(hex: string): [number, number, number] {
  const n = parseInt(hex.slice(1), 16)
  const lin = (c: number) => ((c /= 255) <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)
  const [r, g, b] = [lin(n >> 16), lin((n >> 8) & 255), lin(n & 255)]
  const l = Math.cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b)
  const m = Math.cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b)
  const s = Math.cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b)
  return [0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s, 1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s, 0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s]
}
const distance = (a: string, b: string) => Math.hypot(...oklab(a).map((v, i) => v - oklab(b)[i]!))

/** The smallest distance between any two of the colours. */
function closest(colours: string[]): number {
  let min = Infinity
  for (let i = 0; i < colours.length; i++) for (let j = i + 1; j < colours.length; j++) min = Math.min(min, distance(colours[i]!, colours[j]!))
  return min
}

const first = (n: number) => Array.from({ length: n }, (_, i) => colorOf(i))
const greys = Object.values(CATCH_ALL)

describe('series colours', () => {
  it('gives twelve series twelve hues clearly apart, and apart from the catch-all greys', () => {
    expect(first(12)).toEqual([...PALETTE])
    // 0.1 in OKLab is a difference seen at a glance on a 2 px line; the old palette's indigo and violet were 0.07 apart.
    expect(closest([...first(12), ...greys])).toBeGreaterThan(0.11)
  })

  it('keeps the first eight, the common breakdown, further apart still', () => {
    expect(closest(first(8))).toBeGreaterThan(0.14)
  })

  it.each([13, 24, 36, 60])('gives %i series as many different colours', (n) => {
    const colours = first(n)
    expect(new Set(colours).size).toBe(n)
    for (const c of colours) expect(c).toMatch(/^#[0-9a-f]{6}$/)
    for (const c of colours) expect(greys).not.toContain(c)
  })

  it('tells a hue from its darker and lighter rounds', () => {
    for (let i = 0; i < PALETTE.length; i++) {
      expect(distance(colorOf(i), colorOf(i + 12))).toBeGreaterThan(0.08)
      expect(distance(colorOf(i), colorOf(i + 24))).toBeGreaterThan(0.08)
    }
  })

  it("gives 'Other' and 'Not set' their greys wherever they stand", () => {
    expect(seriesColor('Other', 3)).toBe(CATCH_ALL.Other)
    expect(seriesColor('Not set', 0)).toBe(CATCH_ALL['Not set'])
    expect(seriesColor('pro', 3)).toBe(colorOf(3))
  })
})
