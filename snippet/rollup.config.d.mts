import type { RollupOptions } from 'rollup'

/** Types of rollup.config.mjs, for build.test.ts. */
declare const configs: RollupOptions[]
export default configs
