import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The dashboard package's folder and the production build inside it. */
export const dashboardDir = fileURLToPath(new URL('.', import.meta.url))
export const dashboardDist = join(dashboardDir, 'dist')

/** What a build is made from: a change to any of these makes dist/ stale. */
const SOURCES = ['src', 'index.html', 'vite.config.ts', 'package.json', 'build.ts']

function newestMtime(path: string): number {
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  let newest = stat.mtimeMs
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)))
  return newest
}

/** True when dist/ is missing or older than a source file (mtimes; no hashing). */
export function isDashboardStale(): boolean {
  const built = join(dashboardDist, 'index.html')
  if (!existsSync(built)) return true
  const builtAt = statSync(built).mtimeMs
  return SOURCES.some((s) => existsSync(join(dashboardDir, s)) && newestMtime(join(dashboardDir, s)) > builtAt)
}

/**
 * Builds the dashboard when dist/ is missing or stale, so that `npm start` on a
 * fresh clone and the browser tests always serve the current sources. Vite runs
 * in a child process: its build must not share a module graph with the caller.
 */
export function ensureDashboardBuilt(log: (line: string) => void = (l) => process.stderr.write(l + '\n')): boolean {
  if (!isDashboardStale()) return false
  log('fl0: building the dashboard (dashboard/dist is missing or older than its sources)…')
  const vite = join(dashboardDir, 'node_modules', '.bin', 'vite')
  const bin = existsSync(vite) ? vite : join(dashboardDir, '..', 'node_modules', '.bin', 'vite')
  // NODE_ENV from a test runner ('test') would give React's development build.
  const env = { ...process.env, NODE_ENV: 'production' }
  const result = spawnSync(bin, ['build', '--logLevel', 'warn'], { cwd: dashboardDir, stdio: 'inherit', env })
  if (result.status !== 0) throw new Error(`dashboard build failed (exit ${result.status ?? result.signal})`)
  return true
}

// `tsx dashboard/build.ts` (the root prestart) builds when needed.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) ensureDashboardBuilt()
