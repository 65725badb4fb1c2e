import type { Consumer } from '@fl0/stores'

/**
 * A worker that runs `pass` at once, then again each time `intervalMs` after
 * the last pass ended (or after the delay the pass answers: 0 for at once,
 * when it is behind), until stopped; stop waits for the pass in hand. A pass
 * that throws goes to `failed`, and the next comes as usual.
 */
export function startPeriodic(pass: () => Promise<number | void>, intervalMs: number, failed: (err: unknown) => void): Consumer {
  let stopped = false
  let timer: NodeJS.Timeout | undefined
  let current: Promise<void> = Promise.resolve()

  const tick = () => {
    let delay = intervalMs
    current = (async () => {
      try {
        delay = (await pass()) ?? intervalMs
      } catch (err) {
        failed(err)
      }
    })().finally(() => {
      if (!stopped) timer = setTimeout(tick, delay)
    })
  }
  timer = setTimeout(tick, 0)

  return {
    async stop() {
      stopped = true
      clearTimeout(timer)
      await current
    },
  }
}
