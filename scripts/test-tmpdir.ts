import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * A test run's temporary files (the data directories of chDB, PGlite and the
 * bus that tests make with mkdtemp) in one directory of its own, removed when
 * the run ends: a test that stops early leaves none behind. The test
 * processes start after this and inherit TMPDIR, which os.tmpdir() reads.
 */
export default function setup(): () => void {
  const previous = process.env.TMPDIR
  const dir = mkdtempSync(join(tmpdir(), 'fl0-test-run-'))
  process.env.TMPDIR = dir
  return () => {
    if (previous === undefined) delete process.env.TMPDIR
    else process.env.TMPDIR = previous
    rmSync(dir, { recursive: true, force: true })
  }
}
