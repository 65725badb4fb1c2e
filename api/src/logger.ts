/** The slice of pino the api writes to. */
export interface ApiLogger {
  info(obj: object, msg: string): void
  warn(obj: object, msg: string): void
  error(obj: object, msg: string): void
}
