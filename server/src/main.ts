import { loadConfig } from './config.ts'
import { createLogger } from './logger.ts'
import { startFl0 } from './fl0.ts'

const config = loadConfig()
const logger = createLogger(config.LOG_LEVEL)

try {
  const fl0 = await startFl0(config, logger)
  logger.info({ url: `http://localhost:${fl0.port}`, roles: config.FL0_ROLES, dataDir: config.dataDir }, 'fl0 started')
  let signals = 0
  const shutdown = (signal: string) => {
    if (signals++ > 0) process.exit(1)
    logger.info({ signal }, 'shutting down')
    fl0.stop().then(
      () => process.exit(0),
      (err) => {
        logger.error({ err }, 'shutdown failed')
        process.exit(1)
      },
    )
  }
  process.on('SIGINT', () => shutdown('SIGINT'))
  process.on('SIGTERM', () => shutdown('SIGTERM'))
} catch (err) {
  logger.fatal({ err }, 'fl0 failed to start')
  process.exit(1)
}
