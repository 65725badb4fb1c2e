import { parentPort, workerData } from 'node:worker_threads'
import { createDemo, type DemoMessage, type DemoOptions } from './generator/index.ts'
import { sendMessages, type SendProgress, type SendResult } from './send.ts'

/**
 * The sending thread: makes the demo's calls and sends them with
 * @segment/analytics-node, on the second core, while the main thread runs the
 * embedded fl0 (ingest and event writer). Making and serialising calls costs
 * about as much CPU as ingesting them, so one thread for both halves the speed.
 */
export interface SendWorkerInput {
  demo: DemoOptions
  url: string
  writeKeys: { snippet: string; segment: string }
}

export type SendWorkerMessage =
  | { kind: 'progress'; progress: SendProgress }
  | { kind: 'done'; result: SendResult }
  | { kind: 'failed'; message: string }

const input = workerData as SendWorkerInput
let aborted = false
parentPort!.on('message', (m: { kind: string }) => {
  if (m.kind === 'abort') aborted = true
})
const post = (m: SendWorkerMessage) => parentPort!.postMessage(m)

function* untilAborted(messages: Iterable<DemoMessage>): Generator<DemoMessage> {
  for (const m of messages) {
    if (aborted) return
    yield m
  }
}

try {
  const demo = createDemo(input.demo)
  const result = await sendMessages(untilAborted(demo.messages()), {
    url: input.url,
    writeKeys: input.writeKeys,
    onProgress: (progress) => post({ kind: 'progress', progress }),
  })
  post({ kind: 'done', result })
} catch (error) {
  post({ kind: 'failed', message: (error as Error)?.stack ?? String(error) })
}
