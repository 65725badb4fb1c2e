/**
 * Non-GET calls run one after another (part 1 §4): a save issued while an
 * earlier one is in flight waits for it, so the server sees writes in the order
 * the user made them. drop() forgets the calls still waiting (the reload-on-close
 * snackbar: the page is about to reload, their results would land nowhere);
 * their promises reject with DroppedError, which callers treat like an abort.
 */
export class DroppedError extends Error {
  override name = 'DroppedError'
  constructor() {
    super('The call was dropped before it was sent')
  }
}

export interface SerialQueue {
  run<T>(task: () => Promise<T>): Promise<T>
  drop(): void
  /** Calls waiting, not counting the one running. */
  readonly waiting: number
}

export function createSerialQueue(): SerialQueue {
  const pending: Array<{ start: () => void; reject: (e: Error) => void }> = []
  let running = false

  function next() {
    const item = pending.shift()
    if (!item) {
      running = false
      return
    }
    running = true
    item.start()
  }

  return {
    run<T>(task: () => Promise<T>) {
      return new Promise<T>((resolve, reject) => {
        const start = () => {
          // Whatever the task does, the queue moves on when it settles.
          task().then(resolve, reject).finally(next)
        }
        pending.push({ start, reject })
        if (!running) next()
      })
    },
    drop() {
      for (const item of pending.splice(0)) item.reject(new DroppedError())
    },
    get waiting() {
      return pending.length
    },
  }
}
