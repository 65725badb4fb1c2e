import { DAY_MS, planDay } from './plan.ts'
import { renderSession } from './sessions.ts'
import type { DemoMessage } from './types.ts'
import type { World } from './world.ts'

/**
 * All messages of the window in timestamp order, made lazily.
 *
 * Sessions start in order (each day's plan is sorted, and days follow each
 * other), but a session's later calls interleave with sessions that start after
 * it. So: a session is made when the stream reaches its start, and a heap of the
 * sessions under way yields whichever call is due first. Memory holds one day's
 * plan (small records) and the sessions under way, whatever the window's size.
 * Ties break on session order, then call order, so the order is total and fixed.
 */
export interface StreamInput {
  world: World
  runId: string
  /** Key of the day plans' generators (the run id, or a calibration key). */
  planKey: string
  windowStart: number
  /** Messages after this instant (the future, today) are not yielded. */
  until: number
  scale: number
}

interface Cursor {
  messages: DemoMessage[]
  next: number
  time: number
  order: number
}

export function* streamMessages(input: StreamInput): Generator<DemoMessage> {
  const heap = new CursorHeap()
  let order = 0
  for (let day = 0; day < input.world.days; day++) {
    const dayStart = input.windowStart + day * DAY_MS
    if (dayStart > input.until) break
    const plan = planDay(input.world, input.planKey, day, dayStart, input.scale)
    for (let index = 0; index < plan.length; index++) {
      const session = plan[index]
      while (heap.size && heap.peek().time <= session.start) {
        const m = take(heap)
        if (m.time > input.until) return
        yield m.message
      }
      if (session.start > input.until) break
      const messages = renderSession({ world: input.world, runId: input.runId, windowStart: input.windowStart, day, index }, session)
      if (messages.length) heap.push({ messages, next: 0, time: Date.parse(messages[0].message.timestamp), order: order++ })
    }
  }
  while (heap.size) {
    const m = take(heap)
    if (m.time > input.until) return
    yield m.message
  }
}

function take(heap: CursorHeap): { message: DemoMessage; time: number } {
  const cursor = heap.pop()
  const message = cursor.messages[cursor.next++]
  const time = cursor.time
  if (cursor.next < cursor.messages.length) {
    cursor.time = Date.parse(cursor.messages[cursor.next].message.timestamp)
    heap.push(cursor)
  }
  return { message, time }
}

const before = (a: Cursor, b: Cursor) => a.time < b.time || (a.time === b.time && a.order < b.order)

class CursorHeap {
  private items: Cursor[] = []

  get size(): number {
    return this.items.length
  }

  peek(): Cursor {
    return this.items[0]
  }

  push(c: Cursor): void {
    const a = this.items
    a.push(c)
    let i = a.length - 1
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (!before(a[i], a[parent])) break
      ;[a[i], a[parent]] = [a[parent], a[i]]
      i = parent
    }
  }

  pop(): Cursor {
    const a = this.items
    const top = a[0]
    const last = a.pop()!
    if (a.length) {
      a[0] = last
      let i = 0
      for (;;) {
        const l = 2 * i + 1
        const r = l + 1
        let m = i
        if (l < a.length && before(a[l], a[m])) m = l
        if (r < a.length && before(a[r], a[m])) m = r
        if (m === i) break
        ;[a[i], a[m]] = [a[m], a[i]]
        i = m
      }
    }
    return top
  }
}
