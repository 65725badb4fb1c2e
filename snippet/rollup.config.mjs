import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import terser from '@rollup/plugin-terser'
import typescript from '@rollup/plugin-typescript'

/**
 * Builds dist/fl0.js (the library fl0 serves) and dist/loader.min.js (the
 * loader sites paste). Reproducible: exact dependency versions, no dates or
 * paths in the output; build.test.ts rebuilds and compares with dist/.
 */
const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'))
/** Paths from this file, so that the build is the same from any working directory (build.test.ts runs it from the root). */
const here = (path) => fileURLToPath(new URL(path, import.meta.url))

/** fl0.js reports its version in context.library.version. */
const injectVersion = {
  name: 'fl0-version',
  transform: (code) => code.replaceAll('__FL0_VERSION__', JSON.stringify(version)),
}

const ts = (target) =>
  typescript({
    tsconfig: false,
    // Browser code only: the server side (serve.ts, snippet-code.ts) and the tests are Node's.
    include: [here('./src/fl0.ts'), here('./src/loader.ts'), here('./src/lib/*.ts')],
    exclude: [here('./src/**/*.test.ts')],
    compilerOptions: {
      target,
      module: 'esnext',
      moduleResolution: 'bundler',
      strict: true,
      rewriteRelativeImportExtensions: true,
      lib: ['ES2020', 'DOM'],
      types: [],
      declaration: false,
      sourceMap: false,
    },
  })

const minify = (ecma) =>
  terser({
    ecma,
    toplevel: true,
    compress: { passes: 3, unsafe_arrows: true, pure_getters: true },
    format: { comments: false },
  })

export default [
  {
    input: here('./src/fl0.ts'),
    output: { file: here('./dist/fl0.js'), format: 'iife', strict: false, plugins: [minify(2020)] },
    plugins: [injectVersion, ts('ES2020')],
  },
  {
    input: here('./src/loader.ts'),
    output: { file: here('./dist/loader.min.js'), format: 'es', plugins: [minify(5)] },
    plugins: [ts('ES5')],
  },
]
