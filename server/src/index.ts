export { loadConfig, type Config, type Role } from './config.ts'
export { createLogger, type Logger } from './logger.ts'
export { startFl0, type RunningFl0 } from './fl0.ts'
