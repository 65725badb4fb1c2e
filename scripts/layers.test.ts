import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, normalize, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

/**
 * The layering of the workspaces (README.md, Layout), read from the code:
 * contracts → stores → query → workers → api → server, each importing only
 * from below it; the ingest, the snippet and the dashboard beside them, as
 * listed; demo and bench are tools that may use anything. A package is
 * imported through its entry point, never by a file's path (contracts'
 * modules excepted: each is an entry, so that the dashboard's bundle takes
 * only the modules it uses; and the subpaths a package.json names). No file
 * imports, through its own imports, itself.
 *
 * Tests and their harnesses (*.test.ts, testing.ts, *.contract.ts, fixtures,
 * e2e harnesses) may import upward, as they start a whole fl0 to test a part
 * of it; but they too go through entry points (the testing ones a
 * package.json names).
 */
const ROOT = normalize(join(dirname(fileURLToPath(import.meta.url)), '..'))

const MAY_IMPORT: Record<string, string[]> = {
  contracts: [],
  stores: ['contracts'],
  query: ['contracts', 'stores'],
  workers: ['contracts', 'stores', 'query'],
  ingest: ['contracts', 'stores'],
  snippet: ['contracts'],
  api: ['contracts', 'stores', 'query', 'workers', 'snippet'],
  dashboard: ['contracts'],
  server: ['contracts', 'stores', 'query', 'workers', 'ingest', 'snippet', 'api', 'dashboard'],
  demo: ['contracts', 'stores', 'query', 'workers', 'ingest', 'snippet', 'api', 'server'],
  bench: ['contracts', 'stores', 'query', 'workers', 'ingest', 'snippet', 'api', 'server', 'demo'],
}

const TEST_SUPPORT = /(\.test\.tsx?|\/testing\.ts|\.contract\.ts|\/fixture\.ts|\/harness\.ts|\/test-[\w-]+\.ts|\/e2e\/.*|\/test\/.*)$/
const IMPORT = /(?:^|[^\w.])(?:from\s+|import\s*\(\s*|import\s+)(['"])([^'"]+)\1/g

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return ['node_modules', 'dist', 'test-results'].includes(entry.name) ? [] : sourceFiles(path)
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : []
  })
}

const allFiles = Object.keys(MAY_IMPORT)
  .flatMap((ws) => sourceFiles(join(ROOT, ws)))
  .map((path) => relative(ROOT, path))
const files = allFiles.filter((path) => !TEST_SUPPORT.test(`/${path}`))

const importsOf = (path: string) => [...readFileSync(join(ROOT, path), 'utf8').matchAll(IMPORT)].map((m) => m[2]!)

/** The subpaths a package.json names explicitly (a "./*" pattern names none). */
function namedSubpaths(pkg: string): Set<string> {
  const exports = JSON.parse(readFileSync(join(ROOT, pkg, 'package.json'), 'utf8')).exports as Record<string, string>
  return new Set(Object.keys(exports).filter((k) => k !== '.' && !k.includes('*')).map((k) => k.slice(2)))
}

describe('layers', () => {
  it('has files to check', () => {
    expect(files.length).toBeGreaterThan(300)
  })

  it('no workspace imports one above it or beside it that it may not', () => {
    const wrong = files.flatMap((path) => {
      const ws = path.split('/')[0]!
      return importsOf(path)
        .map((spec) => /^@fl0\/([\w-]+)/.exec(spec)?.[1])
        .filter((pkg): pkg is string => !!pkg && pkg !== ws && !MAY_IMPORT[ws]!.includes(pkg))
        .map((pkg) => `${path} imports @fl0/${pkg}`)
    })
    expect(wrong).toEqual([])
  })

  it('packages are imported through their entry points, not by a file path, by tests too', () => {
    const wrong = allFiles.flatMap((path) =>
      importsOf(path)
        .map((spec) => /^@fl0\/([\w-]+)\/(.+)$/.exec(spec))
        .filter((m): m is RegExpExecArray => !!m && m[1] !== 'contracts' && !namedSubpaths(m[1]!).has(m[2]!))
        .map((m) => `${path} imports ${m[0]}`),
    )
    expect(wrong).toEqual([])
  })

  it('no file imports itself through a loop of imports', () => {
    const graph = new Map(
      files.map((path) => [
        path,
        importsOf(path)
          .filter((spec) => spec.startsWith('.'))
          .map((spec) => normalize(join(dirname(path), spec))),
      ]),
    )
    const loops: string[] = []
    const state = new Map<string, 'open' | 'done'>()
    const visit = (file: string, trail: string[]) => {
      state.set(file, 'open')
      for (const next of graph.get(file) ?? []) {
        if (state.get(next) === 'open') loops.push([...trail.slice(trail.indexOf(next)), file, next].join(' → '))
        else if (!state.has(next)) visit(next, [...trail, file])
      }
      state.set(file, 'done')
    }
    for (const file of graph.keys()) if (!state.has(file)) visit(file, [])
    expect(loops).toEqual([])
  })
})
