import { readFileSync } from 'node:fs'
import { rollup, type OutputOptions } from 'rollup'
import { describe, expect, it } from 'vitest'
import configs from '../rollup.config.mjs'

/**
 * dist/ is committed (fl0 serves it without a build step), so it must be
 * exactly what `npm run build -w snippet` makes from src/: this rebuilds in
 * memory and compares byte for byte. It fails when someone edits src/ and
 * forgets to build, or when the build stops being reproducible.
 */
describe('the committed build', () => {
  for (const config of configs) {
    const output = config.output as OutputOptions
    it(`${output.file!.replace(/.*\/snippet\//, '')} is what the build makes from src/`, async () => {
      // A type error or any other warning fails the build here too.
      const bundle = await rollup({ ...config, onwarn: (warning) => { throw new Error(warning.message) } })
      const { output: chunks } = await bundle.generate(output)
      await bundle.close()
      expect(chunks[0].code).toBe(readFileSync(output.file!, 'utf8'))
    })
  }
})
