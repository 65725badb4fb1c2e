/**
 * @fl0/demo: the demo data generator and the means to send its traffic.
 * Benchmarks and later tools import from here; `npm run demo` is cli.ts.
 */
export * from './generator/index.ts'
export { sendMessages, type SendOptions, type SendResult } from './send.ts'
export { ensureDemoOrganisation, DEMO_URL_CODE, type DemoOrganisation } from './provision.ts'
export { runDemo, assertNoRunningFl0, type DemoRunResult, type RunDemoInput } from './run.ts'
export { writePartnerFiles } from './partner-files.ts'
export { upIdOf, inUniversalTable, cookieSynced, HOSTING_BLOCK, PARTNER_FILES } from './generator/partners.ts'
