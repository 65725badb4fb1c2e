import { createWriteStream, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { finished } from 'node:stream/promises'
import type { Demo } from './generator/index.ts'
import { PARTNER_FILES } from './generator/partners.ts'

/** Writes the demo world's partner files (generator/partners.ts) into `dir`, line by line. */
export async function writePartnerFiles(demo: Demo, dir: string): Promise<Array<{ file: string; rows: number }>> {
  mkdirSync(dir, { recursive: true })
  const out: Array<{ file: string; rows: number }> = []
  for (const [file, lines] of Object.entries(PARTNER_FILES)) {
    const stream = createWriteStream(join(dir, file))
    let rows = -1
    for (const line of lines(demo.world, demo.window.end)) {
      rows++
      if (!stream.write(`${line}\n`)) await new Promise<void>((r) => stream.once('drain', () => r()))
    }
    stream.end()
    await finished(stream)
    out.push({ file, rows })
  }
  return out
}
