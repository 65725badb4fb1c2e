import { pino } from 'pino'
import { loadConfig } from '@fl0/server'
import { parseCliArgs, USAGE } from './args.ts'
import { assertNoRunningFl0, runDemo } from './run.ts'
import { writePartnerFiles } from './partner-files.ts'
import { createDemo } from './generator/index.ts'

/**
 * npm run demo [-- options]: see USAGE in args.ts and demo/README.md.
 * Progress goes to stderr; stdout carries only the result (one JSON line with
 * --json), so scripts can read the write keys.
 */
const err = (line: string) => process.stderr.write(`${line}\n`)

async function main(): Promise<number> {
  let args
  try {
    args = parseCliArgs(process.argv.slice(2))
  } catch (error) {
    err(`${(error as Error).message}\n\n${USAGE}`)
    return 2
  }
  if (args.help) {
    process.stdout.write(USAGE)
    return 0
  }

  const config = loadConfig()
  if (config.PORT !== 0) await assertNoRunningFl0(config.PORT)
  // fl0's own log goes to stderr too, at warn unless LOG_LEVEL asks for more: the progress lines say the rest.
  const logger = pino({ level: process.env.LOG_LEVEL ? config.LOG_LEVEL : 'warn', base: { service: 'fl0' } }, pino.destination(2))

  const abort = new AbortController()
  process.on('SIGINT', () => {
    if (abort.signal.aborted) process.exit(130)
    err('stopping: delivering what was sent, then closing fl0 (Ctrl-C again to quit at once)')
    abort.abort(new Error('interrupted'))
  })

  if (args.partners) {
    const written = await writePartnerFiles(createDemo(args.demo), args.partners)
    err(`partner files: ${written.map((w) => `${w.file} (${w.rows.toLocaleString('en')} rows)`).join(', ')} in ${args.partners}`)
  }
  err(`fl0 demo: data directory ${config.dataDir}`)
  const result = await runDemo({ config, logger, demo: args.demo, log: (line) => err(`  ${line}`), signal: abort.signal })
  if (args.json) {
    process.stdout.write(`${JSON.stringify(result)}\n`)
  } else {
    const lines = [
      `Organisation '${result.url_code}' (${result.org_id}): ${result.events.toLocaleString('en')} demo events stored (${result.sent.toLocaleString('en')} sent now).`,
      ...result.sources.map((s) => `  ${s.type.padEnd(8)} ${s.name.padEnd(11)} write key ${s.write_key}${s.url ? `  (${s.url})` : ''}`),
      'Start fl0 with npm start to explore them.',
    ]
    process.stdout.write(`${lines.join('\n')}\n`)
  }
  return 0
}

main().then(
  (code) => process.exit(code),
  (error) => {
    err(`demo failed: ${(error as Error)?.message ?? error}`)
    process.exit(1)
  },
)
