import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { LIBRARY_FILE } from './serve.ts'

/**
 * The size budget of the served library (issue 3): at most 2.5 KB gzipped.
 * Measured as `gzip -9` measures it where the gzip program is installed, and
 * with zlib at level 9 as well; the larger of the two counts.
 */
export const BUDGET_BYTES = 2560

export function gzippedSize(file: string): number {
  const data = readFileSync(file)
  const sizes = [gzipSync(data, { level: 9 }).length]
  const gzip = spawnSync('gzip', ['-9', '-n', '-c'], { input: data })
  if (gzip.status === 0) sizes.push(gzip.stdout.length)
  return Math.max(...sizes)
}

describe('fl0.js size', () => {
  it(`is at most ${BUDGET_BYTES} bytes gzipped`, () => {
    const size = gzippedSize(LIBRARY_FILE)
    console.info(`fl0.js: ${readFileSync(LIBRARY_FILE).length} bytes, ${size} bytes gzip -9 (budget ${BUDGET_BYTES})`)
    expect(size).toBeLessThanOrEqual(BUDGET_BYTES)
  })
})
