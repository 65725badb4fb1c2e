import { z } from 'zod'

/**
 * zod 4 compiles object schemas into functions (`new Function`) where the
 * page allows it, and tries once to find out. fl0's Content-Security-Policy
 * has no 'unsafe-eval' (server/src/csp.ts): the try is refused, and the
 * browser reports a violation on every page. Jitless, zod parses the same
 * schemas to the same results without generating code, and never tries.
 * Imported first by main.tsx, before any schema is used.
 */
z.config({ jitless: true })
