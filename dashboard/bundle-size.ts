import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { fileURLToPath } from 'node:url'

/** The first load's budget (issue 5): at most 200 KB gzipped, screens loaded lazily. */
export const FIRST_LOAD_BUDGET = 200 * 1024

interface ManifestChunk {
  file: string
  isEntry?: boolean
  imports?: string[]
  dynamicImports?: string[]
  css?: string[]
}

export interface FirstLoad {
  files: Array<{ file: string; bytes: number; gzip: number }>
  bytes: number
  gzip: number
  /** Chunks loaded later, on demand (screens). */
  lazy: number
}

/**
 * What a browser fetches before the first screen can render: index.html, the
 * entry chunk, the chunks it imports statically (Vite preloads them) and their
 * CSS, each gzipped at level 9. Dynamic imports (lazily loaded screens) are not
 * counted: they arrive when a screen is opened.
 */
export function firstLoadSize(distDir: string): FirstLoad {
  const manifest = JSON.parse(readFileSync(join(distDir, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>
  const seen = new Set<string>()
  const files = new Set<string>(['index.html'])
  const visit = (key: string) => {
    if (seen.has(key)) return
    seen.add(key)
    const chunk = manifest[key]
    if (!chunk) return
    files.add(chunk.file)
    for (const css of chunk.css ?? []) files.add(css)
    for (const imported of chunk.imports ?? []) visit(imported)
  }
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) visit(key)
  const measured = [...files].map((file) => {
    const content = readFileSync(join(distDir, file))
    return { file, bytes: content.length, gzip: gzipSync(content, { level: 9 }).length }
  })
  const all = new Set(Object.values(manifest).map((c) => c.file))
  return {
    files: measured,
    bytes: measured.reduce((n, f) => n + f.bytes, 0),
    gzip: measured.reduce((n, f) => n + f.gzip, 0),
    lazy: [...all].filter((f) => !files.has(f)).length,
  }
}

// `tsx dashboard/bundle-size.ts` prints the table for bench/README.md.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const size = firstLoadSize(join(fileURLToPath(new URL('.', import.meta.url)), 'dist'))
  for (const f of size.files) console.log(`| ${f.file} | ${f.bytes.toLocaleString('en-US')} | ${f.gzip.toLocaleString('en-US')} |`)
  console.log(`| total | ${size.bytes.toLocaleString('en-US')} | ${size.gzip.toLocaleString('en-US')} |`)
  console.log(`lazy chunks: ${size.lazy}`)
}
