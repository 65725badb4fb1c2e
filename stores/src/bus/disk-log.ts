import { EventEmitter } from 'node:events'
import {
  closeSync,
  existsSync,
  fdatasync as fdatasyncCb,
  ftruncate as ftruncateCb,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeSync,
} from 'node:fs'
import { open, rename, unlink, type FileHandle } from 'node:fs/promises'
import { join } from 'node:path'
import { crc32 } from 'node:zlib'
import type { ViewSource } from './types.ts'
import { freeBytesOf } from './disk-space.ts'
import { makeView } from './view.ts'

/**
 * One topic of the embedded bus: an append-only log in segment files.
 *
 * Record layout (little endian):
 *   u32 payloadLength | u32 crc32(payload) | payload
 *   payload = u64 offset | u32 keyLength | key (utf8) | value (utf8)
 *
 * Durability: appends are gathered while a sync is in flight and written with one
 * write + fdatasync (group commit), so a burst of requests shares one fsync. An
 * append's promise resolves only after its fdatasync, and readers only ever see
 * records up to the last fsynced offset.
 *
 * Readers that keep up read from memory: the log keeps the records it made
 * durable, as the bytes it wrote, until every open reader has passed them, up
 * to `recentBytes`; a reader further behind reads the files. A reader may make
 * a view of each record (what its consumer reads of it: ConsumeOptions.view);
 * the log makes it as the record is appended, from the publisher's object, and
 * keeps it beside the bytes. So in a steady stream no consumer reads, decodes,
 * checksums or parses a record the log wrote a moment before; and the log
 * keeps no text or object of it, which the garbage collector would copy as
 * long as a reader lags (bench/README.md, issue 19).
 *
 * Segments after the first are written over zeros: once the active segment is
 * half full, the next one is written full of zeros and synced, off the event
 * loop, and the roll renames it into place (PostgreSQL does the same for its
 * WAL). A write over blocks the file already has changes no metadata, so its
 * fdatasync flushes the data alone and waits for no journal commit. An append
 * that grows the file waits for one, and a journal commit flushes the data of
 * every file written meanwhile (chDB's parts): measured on this machine's ext4
 * while another thread wrote 50 MB/s of new files, a 20 KB write's fdatasync
 * took p50 0.33 / p90 1.5–2.2 / p99 10 ms growing the file, 0.12 / 0.22 /
 * 2.7–4.0 ms over zeros (bench/README.md, issue 19). Readers never read an
 * active segment past its durable bytes: beyond them lie zeros that later
 * writes replace.
 *
 * A full disk: a write that fails (ENOSPC) fails its appends and those waiting behind
 * it, the segment is cut back to its synced bytes, and the log goes on, taking appends
 * again once there is room (the ingest refuses events well before: disk-space.ts). A
 * failed fdatasync is not retried: the log refuses appends until a restart.
 *
 * Recovery: on open the last segment is scanned; the first record whose length,
 * checksum or offset is wrong marks a torn tail (a crash mid-write), or the zeros
 * of a segment written over zeros, and the file is truncated there. Nothing
 * acknowledged can be in a torn tail, because acknowledgement waits for the fsync.
 */
const HEADER = 8
const PAYLOAD_FIXED = 12
const MAX_RECORD = 64 * 1024 * 1024
/** The next segment's file while it is written full of zeros (not a `.log`: recovery deletes it). */
const SPARE = 'next-segment.zeros'
/** How long after a spare failed to be written (the disk full) the log waits before it writes one again. */
const SPARE_RETRY_MS = 10_000

export interface LogRecord {
  offset: number
  key: string
  /** The value's UTF-8 bytes: a view of the buffer the log wrote, or read the file into. */
  value: Buffer
  /** The readers open with a view when the record was appended, and their views of it, in the same order. */
  viewers?: readonly LogReader[]
  views?: unknown[]
}

type ViewFn = (message: ViewSource) => unknown

interface Segment {
  base: number
  path: string
}

export interface DiskLogOptions {
  dir: string
  segmentBytes?: number
  /**
   * How much of the newest records to keep in memory for readers that keep up (value bytes; default 64 MiB: the
   * event writer, which takes up to 20,000 records a batch, runs up to 70,000 behind a steady ingest near the most
   * it stores, and with 16 MiB it read nearly everything back from the files).
   */
  recentBytes?: number
}

export class DiskLog {
  readonly dir: string
  private readonly segmentBytes: number
  private readonly recentBytesMax: number
  private segments: Segment[] = []
  private fd = -1
  /** Bytes of the active segment written and fsynced (its file may be longer: zeros). */
  private activeSize = 0
  /** The next segment's file, full of zeros and synced once `ready`; none before the active one is half full. */
  private spare: { done: Promise<void>; ready: boolean } | null = null
  /** No spare is written before this time: the last one failed (the disk full). */
  private spareAgainAt = 0
  private nextOffset = 0
  /** Records below this offset are on disk and fsynced. */
  private durableEnd = 0
  /** The bytes written next: runs of the encoding buffer, one a run of appends that follow each other in it. */
  private pending: Buffer[] = []
  /** Where records are encoded, one after another (encodeInto); a new one when full. */
  private arena = Buffer.alloc(0)
  private arenaAt = 0
  /** The records of `pending`, in order: their offsets, and for the readers that keep up. */
  private pendingRecords: LogRecord[] = []
  /** Durable records from offset recent[recentHead].offset on, contiguous, for readers that keep up. */
  private recent: LogRecord[] = []
  private recentHead = 0
  private recentBytes = 0
  private readonly readers = new Set<LogReader>()
  /** The open readers that make a view of each record (a new array whenever one opens or closes: records keep the one they were made with). */
  private viewers: readonly LogReader[] = []
  private waiters: Array<{ resolve: () => void; reject: (e: Error) => void }> = []
  private flushing = false
  /** Segment files opened with fs/promises (after a roll); closed through their handle. */
  private handles: FileHandle[] = []
  private failed: Error | null = null
  /** Segments being deleted (truncateBefore); close waits for them. */
  private readonly unlinking = new Set<Promise<void>>()
  private readonly events = new EventEmitter()

  constructor(options: DiskLogOptions) {
    this.dir = options.dir
    this.segmentBytes = options.segmentBytes ?? 64 * 1024 * 1024
    this.recentBytesMax = options.recentBytes ?? 64 * 1024 * 1024
    this.events.setMaxListeners(0)
    mkdirSync(this.dir, { recursive: true })
    this.recover()
  }

  /** The offset the next appended record will get; also the end of the durable log once flushed. */
  get endOffset(): number {
    return this.durableEnd
  }

  /** The failure that stopped the log (a failed fdatasync, roll or cut): it refuses appends until a restart. */
  get stoppedBy(): Error | null {
    return this.failed
  }

  get startOffset(): number {
    return this.segments[0]?.base ?? 0
  }

  append(records: Array<{ key: string; value: string; record?: unknown }>): Promise<void> {
    if (this.failed) return Promise.reject(this.failed)
    if (records.length === 0) return Promise.resolve()
    for (const r of records) {
      if (typeof r.key !== 'string' || typeof r.value !== 'string') return Promise.reject(new TypeError('a log record\'s key and value must be strings'))
    }
    const viewers = this.viewers
    // Where the log stood: an append that throws part-way leaves none of its records, never a record without its bytes.
    const mark = { records: this.pendingRecords.length, pending: this.pending.length, last: this.pending[this.pending.length - 1], arena: this.arena, at: this.arenaAt, offset: this.nextOffset }
    try {
      this.encodeAll(records, viewers)
    } catch (error) {
      this.pendingRecords.length = mark.records
      this.pending.length = mark.pending
      if (mark.last) this.pending[mark.pending - 1] = mark.last
      this.nextOffset = mark.offset
      if (this.arena === mark.arena) this.arenaAt = mark.at
      else this.arenaAt = 0
      return Promise.reject(error instanceof Error ? error : new Error(String(error)))
    }
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }))
    if (!this.flushing) {
      this.flushing = true
      // Let the requests that arrive in the same turn join this group commit.
      setImmediate(() => void this.flushLoop())
    }
    return done
  }

  /** Encodes the records one after another into the arena, each with its readers' views, and queues their bytes. */
  private encodeAll(records: Array<{ key: string; value: string; record?: unknown }>, viewers: readonly LogReader[]): void {
    let runStart = this.arenaAt
    for (const r of records) {
      // Room for the record whatever its text: UTF-8 takes at most 3 bytes for a UTF-16 unit.
      const room = HEADER + PAYLOAD_FIXED + 3 * (r.key.length + r.value.length)
      if (this.arena.length - this.arenaAt < room) {
        this.pendRun(runStart)
        this.arena = Buffer.allocUnsafeSlow(Math.max(ARENA_BYTES, room))
        this.arenaAt = runStart = 0
      }
      const value = encodeInto(this.arena, this.arenaAt, this.nextOffset, r.key, r.value)
      this.arenaAt = value.byteOffset - this.arena.byteOffset + value.length
      const record: LogRecord = { offset: this.nextOffset, key: r.key, value }
      if (viewers.length > 0) {
        const views = new Array<unknown>(viewers.length)
        for (let i = 0; i < viewers.length; i++) views[i] = makeView(viewers[i]!.view, r)
        record.viewers = viewers
        record.views = views
      }
      this.pendingRecords.push(record)
      this.nextOffset++
    }
    this.pendRun(runStart)
  }

  /** The encoding buffer from `start` to where it is filled, as bytes to write: the run before it grown when they follow each other. */
  private pendRun(start: number): void {
    if (start === this.arenaAt) return
    const last = this.pending[this.pending.length - 1]
    if (last && last.buffer === this.arena.buffer && last.byteOffset + last.length === this.arena.byteOffset + start) {
      this.pending[this.pending.length - 1] = this.arena.subarray(last.byteOffset - this.arena.byteOffset, this.arenaAt)
    } else {
      this.pending.push(this.arena.subarray(start, this.arenaAt))
    }
  }

  /** Resolves when records at or beyond `offset` are durable, or after `timeoutMs`. */
  waitFor(offset: number, timeoutMs: number): Promise<void> {
    if (this.durableEnd > offset) return Promise.resolve()
    return new Promise((resolve) => {
      const timer = setTimeout(done, timeoutMs)
      const events = this.events
      function done() {
        clearTimeout(timer)
        events.off('durable', onDurable)
        resolve()
      }
      const onDurable = (end: number) => {
        if (end > offset) done()
      }
      events.on('durable', onDurable)
    })
  }

  /** A reader from `offset` on; with `view`, it makes its view of each record (LogReader.viewOf), as records are appended. */
  openReader(offset: number, view?: ViewFn): LogReader {
    const reader = new LogReader(this, Math.max(offset, this.startOffset), view)
    this.readers.add(reader)
    if (view) this.viewers = [...this.viewers, reader]
    return reader
  }

  /** @internal A reader closed: the records it alone held back can go. */
  forget(reader: LogReader): void {
    this.readers.delete(reader)
    if (this.viewers.includes(reader)) this.viewers = this.viewers.filter((r) => r !== reader)
    this.trimRecent()
  }

  /**
   * @internal Up to `max` durable records from `offset` on, out of memory; none
   * when the record at `offset` is not there (the reader then reads the files).
   */
  fromMemory(offset: number, max: number, maxBytes: number): LogRecord[] {
    if (this.recentHead >= this.recent.length) return []
    const first = this.recent[this.recentHead].offset
    if (offset < first) return []
    const out: LogRecord[] = []
    let bytes = 0
    for (let i = this.recentHead + (offset - first); i < this.recent.length && out.length < max && bytes < maxBytes; i++) {
      out.push(this.recent[i])
      bytes += this.recent[i].value.length
    }
    return out
  }

  /** @internal Drops the records every reader has passed, and the oldest past the budget. */
  trimRecent(): void {
    let passed = this.durableEnd
    for (const r of this.readers) passed = Math.min(passed, r.offset)
    while (this.recentHead < this.recent.length && (this.recent[this.recentHead].offset < passed || this.recentBytes > this.recentBytesMax)) {
      this.recentBytes -= this.recent[this.recentHead].value.length
      this.recent[this.recentHead] = undefined as unknown as LogRecord
      this.recentHead++
    }
    if (this.recentHead === this.recent.length) {
      this.recent = []
      this.recentHead = 0
    } else if (this.recentHead > 4096 && this.recentHead * 2 > this.recent.length) {
      this.recent = this.recent.slice(this.recentHead)
      this.recentHead = 0
    }
  }

  /**
   * Deletes whole segments that lie entirely below `offset` (never the active one). The files go off
   * the event loop: unlinking a 64 MB segment held it for milliseconds while requests waited. A crash
   * before a file is gone leaves a segment below every group's offset, which the next call deletes.
   */
  truncateBefore(offset: number): number {
    let removed = 0
    while (this.segments.length > 1 && this.segments[1].base <= offset) {
      const old = this.segments.shift()!
      // Already gone: nothing to reclaim.
      const gone: Promise<void> = unlink(old.path)
        .catch(() => {})
        .finally(() => this.unlinking.delete(gone))
      this.unlinking.add(gone)
      removed++
    }
    return removed
  }

  /** The segment holding `offset` (the first one when it was already truncated away). */
  segmentFor(offset: number): Segment | undefined {
    for (let i = this.segments.length - 1; i >= 0; i--) {
      if (this.segments[i].base <= offset) return this.segments[i]
    }
    return this.segments[0]
  }

  segmentAfter(base: number): Segment | undefined {
    return this.segments.find((s) => s.base > base)
  }

  async close(): Promise<void> {
    while (this.flushing) await new Promise((r) => setTimeout(r, 5))
    // A log opened again on the directory must not find a segment that is about to go, nor a spare being written.
    await Promise.all(this.unlinking)
    await this.spare?.done
    if (this.fd >= 0) {
      fsyncSync(this.fd)
      const handle = this.handles.find((h) => h.fd === this.fd)
      if (handle) await handle.close()
      else closeSync(this.fd)
      this.fd = -1
    }
  }

  private async flushLoop(): Promise<void> {
    try {
      while (this.pending.length > 0) {
        const buffers = this.pending
        const records = this.pendingRecords
        const waiters = this.waiters
        this.pending = []
        this.pendingRecords = []
        this.waiters = []
        try {
          if (this.activeSize >= this.segmentBytes) await this.roll(records[0].offset)
          const data = buffers.length === 1 ? buffers[0] : Buffer.concat(buffers)
          try {
            writeAll(this.fd, data, this.activeSize)
          } catch (error) {
            if (await this.undoWrite()) {
              // Nothing of the group was synced: its appends, and those encoded after it, fail; later ones go on.
              this.failQueued(waiters, error instanceof Error ? error : new Error(String(error)))
              this.nextOffset = this.durableEnd
              continue
            }
            throw error
          }
          await fdatasync(this.fd)
          this.activeSize += data.length
          this.durableEnd = records[records.length - 1].offset + 1
          this.spareWhenHalfFull()
          if (this.readers.size > 0) {
            for (const r of records) {
              this.recent.push(r)
              this.recentBytes += r.value.length
            }
            this.trimRecent()
          }
          for (const w of waiters) w.resolve()
          this.events.emit('durable', this.durableEnd)
        } catch (error) {
          // A failed sync (or roll, or cut after a failed write) leaves the tail unknown; refuse
          // further appends until a restart recovers the log from its last good record. Not as the
          // cause's code: an ENOSPC here is not a disk that frees up and lets the log go on.
          const cause = error instanceof Error ? error : new Error(String(error))
          this.failed = Object.assign(new Error(`the bus log stopped after a failed write (${cause.message}); restart fl0 to recover it`, { cause }), { code: 'BUS_LOG_STOPPED' })
          this.failQueued(waiters, this.failed)
        }
      }
    } finally {
      this.flushing = false
    }
  }

  /** Fails the appends of the group in hand (`inHand`) and every one queued behind it, and empties the queue. */
  private failQueued(inHand: DiskLog['waiters'], error: Error): void {
    for (const w of [...inHand, ...this.waiters]) w.reject(error)
    this.pending = []
    this.pendingRecords = []
    this.waiters = []
  }

  /**
   * After a write that failed (the disk full, most likely: ENOSPC), cuts the active segment back to its
   * synced bytes, so that whatever part of the write reached the file is gone, and syncs that: the log
   * then goes on from its durable end, and its next write takes the place of the failed one. A failed
   * fdatasync is another matter (what the kernel then kept of the file is unknown: PostgreSQL stops on
   * it), and so is a failed cut: the log then refuses appends until a restart recovers it. Answers
   * whether the cut held.
   */
  private async undoWrite(): Promise<boolean> {
    try {
      await ftruncate(this.fd, this.activeSize)
      await fdatasync(this.fd)
      return true
    } catch {
      return false
    }
  }

  /**
   * Starts a new segment: the spare, full of zeros, when it is ready; else an empty
   * file, which then grows as it is written. Every write was fdatasynced already,
   * so the old file needs only closing.
   */
  private async roll(base: number): Promise<void> {
    const old = this.fd
    const path = join(this.dir, segmentName(base))
    let zeroed = false
    if (this.spare?.ready) {
      this.spare = null
      // Should the rename fail (the spare removed by hand), the segment starts empty.
      zeroed = await rename(join(this.dir, SPARE), path).then(
        () => true,
        () => false,
      )
    }
    const handle = await open(path, zeroed ? 'r+' : 'a+')
    this.fd = handle.fd
    this.handles.push(handle)
    this.activeSize = 0
    this.segments.push({ base, path })
    const dir = await open(this.dir, 'r')
    try {
      await dir.sync()
    } finally {
      await dir.close()
    }
    this.closeFd(old)
  }

  /**
   * Once the active segment is half full, writes the next segment's file full of zeros and syncs it, off the
   * event loop; a failure leaves no spare (the roll then makes an empty file).
   */
  private spareWhenHalfFull(): void {
    if (this.spare || this.activeSize * 2 < this.segmentBytes || performance.now() < this.spareAgainAt) return
    // Not on a disk short of room: the zeros would take what the appends, chDB and PGlite need next (a roll then
    // starts an empty file, as without a spare). Twice a segment, so that a spare never takes the last of it.
    if (roomLeft(this.dir) < 2 * this.segmentBytes) {
      this.spareAgainAt = performance.now() + SPARE_RETRY_MS
      return
    }
    const path = join(this.dir, SPARE)
    const spare: { done: Promise<void>; ready: boolean } = { ready: false, done: Promise.resolve() }
    spare.done = zeroFile(path, this.segmentBytes).then(
      () => {
        spare.ready = true
      },
      // A spare the disk had no room for is removed, not left to hold the room freed next, and tried again
      // only after a while: meanwhile the log writes as the disk lets it, and a roll starts an empty file.
      () =>
        unlink(path)
          .catch(() => {})
          .finally(() => {
            this.spareAgainAt = performance.now() + SPARE_RETRY_MS
            if (this.spare === spare) this.spare = null
          }),
    )
    this.spare = spare
  }

  /** @internal Resolves once the spare being written is written (tests: so that the next roll takes it). */
  spareWritten(): Promise<void> {
    return this.spare?.done ?? Promise.resolve()
  }

  /** @internal How far a reader may read a segment's file: the active one's durable bytes, a rolled one whole. */
  readableBytes(base: number): number {
    return base === this.segments[this.segments.length - 1]?.base ? this.activeSize : Number.POSITIVE_INFINITY
  }

  private closeFd(fd: number): void {
    const i = this.handles.findIndex((h) => h.fd === fd)
    // Its bytes are synced before it is closed: a failed close loses nothing, and must not end the process.
    if (i >= 0) void this.handles.splice(i, 1)[0].close().catch(() => {})
    else closeSync(fd)
  }

  private recover(): void {
    // A spare may be partly written (a crash while it was): a new one is made when needed.
    rmSync(join(this.dir, SPARE), { force: true })
    const names = readdirSync(this.dir).filter((n) => n.endsWith('.log')).sort()
    this.segments = names.map((n) => ({ base: Number(n.slice(0, -4)), path: join(this.dir, n) }))
    if (this.segments.length === 0) {
      const path = join(this.dir, segmentName(0))
      this.segments.push({ base: 0, path })
      this.fd = openSync(path, 'a+')
      syncDir(this.dir)
      return
    }
    const active = this.segments[this.segments.length - 1]
    const data = readFileSync(active.path)
    let pos = 0
    let expected = active.base
    for (let rec = readRecord(data, 0); rec && rec.offset === expected; rec = readRecord(data, rec.end)) {
      expected++
      pos = rec.end
    }
    if (pos < data.length) {
      // Torn tail from a crash mid-write (never acknowledged, safe to drop), or the zeros the segment was written over.
      const fd = openSync(active.path, 'r+')
      try {
        ftruncateSync(fd, pos)
        fsyncSync(fd)
      } finally {
        closeSync(fd)
      }
    }
    this.fd = openSync(active.path, 'a+')
    this.activeSize = pos
    this.spareWhenHalfFull()
    this.nextOffset = expected
    this.durableEnd = expected
  }
}

/** Reads records in offset order, across segments, never past the durable end. */
export class LogReader {
  private handle: FileHandle | null = null
  private segmentBase = -1
  private position = 0
  private buffer = Buffer.alloc(0)
  private bufferStart = 0

  constructor(
    private readonly log: DiskLog,
    private nextOffset: number,
    /** @internal What this reader's consumer reads of a record, if it reads a view. */
    readonly view?: ViewFn,
  ) {}

  /**
   * This reader's view of a record it read: the one made as the record was
   * appended, or else made now from `source` (the record's message, whose value
   * is decoded when read): for records read back from the files, or appended
   * before this reader opened.
   */
  viewOf(record: LogRecord, source: ViewSource): unknown {
    if (!this.view) return undefined
    if (record.viewers) {
      const i = record.viewers.indexOf(this)
      if (i >= 0) return record.views![i]
    }
    return makeView(this.view, source)
  }

  get offset(): number {
    return this.nextOffset
  }

  async read(max: number, maxBytes = 8 * 1024 * 1024): Promise<LogRecord[]> {
    const out: LogRecord[] = []
    let bytes = 0
    while (out.length < max && bytes < maxBytes && this.nextOffset < this.log.endOffset) {
      const kept = this.log.fromMemory(this.nextOffset, max - out.length, maxBytes - bytes)
      if (kept.length > 0) {
        for (const r of kept) {
          out.push(r)
          bytes += r.value.length
        }
        this.nextOffset = kept[kept.length - 1].offset + 1
        this.log.trimRecent()
        // The file position no longer follows: should this reader fall behind, it reopens at its offset.
        if (this.handle) {
          void this.handle.close().catch(() => {})
          this.handle = null
        }
        continue
      }
      if (!(await this.ensureOpen())) break
      const rec = readRecord(this.buffer, this.bufferStart)
      if (rec) {
        if (rec.offset >= this.log.endOffset) break
        this.consume(rec.end)
        if (rec.offset < this.nextOffset) continue // seeking forward inside a segment
        out.push({ offset: rec.offset, key: rec.key, value: rec.value })
        bytes += rec.value.length
        this.nextOffset = rec.offset + 1
        continue
      }
      if ((await this.fill()) > 0) continue
      // End of this segment's file. Rolled segments end on a whole record, so a later
      // segment means this one is done; otherwise we are caught up with the writer.
      const next = this.log.segmentAfter(this.segmentBase)
      if (!next) break
      await this.reopen(next.base, next.path)
    }
    return out
  }

  async close(): Promise<void> {
    this.log.forget(this)
    await this.handle?.close()
    this.handle = null
  }

  private async ensureOpen(): Promise<boolean> {
    if (this.handle) return true
    const segment = this.log.segmentFor(this.nextOffset)
    if (!segment) return false
    await this.reopen(segment.base, segment.path)
    return true
  }

  private async reopen(base: number, path: string): Promise<void> {
    await this.handle?.close()
    this.handle = await open(path, 'r')
    this.segmentBase = base
    this.position = 0
    this.buffer = Buffer.alloc(0)
    this.bufferStart = 0
  }

  private async fill(): Promise<number> {
    // Never past the active segment's durable bytes: beyond them, zeros that later writes replace.
    const room = Math.min(1024 * 1024, this.log.readableBytes(this.segmentBase) - this.position)
    if (room <= 0) return 0
    const chunk = Buffer.allocUnsafe(room)
    const { bytesRead } = await this.handle!.read(chunk, 0, chunk.length, this.position)
    if (bytesRead === 0) return 0
    this.position += bytesRead
    this.buffer = Buffer.concat([this.buffer.subarray(this.bufferStart), chunk.subarray(0, bytesRead)])
    this.bufferStart = 0
    return bytesRead
  }

  private consume(end: number): void {
    this.bufferStart = end
  }
}

/**
 * The whole, checksummed record at `pos`, with where the next one starts; undefined
 * when the bytes there are not yet complete, or are torn or corrupt.
 */
function readRecord(data: Buffer, pos: number): (LogRecord & { end: number }) | undefined {
  if (pos + HEADER > data.length) return undefined
  const length = data.readUInt32LE(pos)
  if (length < PAYLOAD_FIXED || length > MAX_RECORD || pos + HEADER + length > data.length) return undefined
  const payload = data.subarray(pos + HEADER, pos + HEADER + length)
  if (crc32(payload) !== data.readUInt32LE(pos + 4)) return undefined
  const keyLength = payload.readUInt32LE(8)
  if (PAYLOAD_FIXED + keyLength > length) return undefined
  return {
    offset: Number(payload.readBigUInt64LE(0)),
    key: payload.toString('utf8', PAYLOAD_FIXED, PAYLOAD_FIXED + keyLength),
    value: payload.subarray(PAYLOAD_FIXED + keyLength),
    end: pos + HEADER + length,
  }
}

/**
 * Encodes a record into `buf` at `at` (room for it checked by the caller), and
 * gives its value's bytes there. The text is written as UTF-8 straight into the
 * buffer, its length read from what was written: no measuring pass, and no
 * buffer of its own for each record (issue 19).
 */
function encodeInto(buf: Buffer, at: number, offset: number, key: string, value: string): Buffer {
  const keyAt = at + HEADER + PAYLOAD_FIXED
  const keyLength = buf.write(key, keyAt, 'utf8')
  const valueAt = keyAt + keyLength
  const valueLength = buf.write(value, valueAt, 'utf8')
  const length = PAYLOAD_FIXED + keyLength + valueLength
  buf.writeUInt32LE(length, at)
  // The u64 offset as two halves (offsets stay below 2^53).
  buf.writeUInt32LE(offset % 0x1_0000_0000, at + HEADER)
  buf.writeUInt32LE(Math.floor(offset / 0x1_0000_0000), at + HEADER + 4)
  buf.writeUInt32LE(keyLength, at + HEADER + 8)
  buf.writeUInt32LE(crc32(buf.subarray(at + HEADER, at + HEADER + length)), at + 4)
  return buf.subarray(valueAt, valueAt + valueLength)
}

/** The encoding buffer's size: a thousand events or so; a larger record gets one of its own size. */
const ARENA_BYTES = 1024 * 1024

function segmentName(base: number): string {
  return `${String(base).padStart(20, '0')}.log`
}

function syncDir(dir: string): void {
  const fd = openSync(dir, 'r')
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}

/**
 * A group's bytes written at `position`, on the calling thread; only the fdatasync goes to libuv's pool.
 * The write is a copy into the page cache (of a segment written over with zeros beforehand, but for the
 * first segment, which grows as it is written): measured at 0.1–0.2 ms at p99 under /v1/track, and
 * 0.09–0.15 ms at the median, under 0.5 ms at p99, for the 0.2–1.5 MB groups of /v1/batch at full speed.
 * Written asynchronously, it waited for a thread of the pool, which chDB's calls share, then for the event
 * loop: 1.3 ms at the median under /v1/track, which every append of the group waited as well as the
 * fdatasync (bench/README.md, issue 19). The cost: a write the kernel holds back (its dirty pages over
 * their limit, while chDB writes much) now holds the event loop, not only the group's appends.
 */
function writeAll(fd: number, data: Buffer, position: number): void {
  for (let written = 0; written < data.length; ) {
    const n = writeSync(fd, data, written, data.length - written, position + written)
    if (n === 0) throw Object.assign(new Error('the bus log took no bytes of a write'), { code: 'ENOSPC' })
    written += n
  }
}

/** A file of `bytes` zeros, synced (written, not fallocated: writes into fallocated blocks change their extents, metadata again). */
async function zeroFile(path: string, bytes: number): Promise<void> {
  const zeros = Buffer.alloc(Math.min(bytes, 1024 * 1024))
  const file = await open(path, 'w')
  try {
    // A nearly full disk writes short before it refuses: each write goes on from where the last one stopped, so that
    // the next one meets the ENOSPC, and a spare the disk has no room for never counts as ready.
    for (let at = 0; at < bytes; ) {
      const { bytesWritten } = await file.write(zeros, 0, Math.min(zeros.length, bytes - at), at)
      if (bytesWritten === 0) throw Object.assign(new Error('no room for the next segment'), { code: 'ENOSPC' })
      at += bytesWritten
    }
    await file.datasync()
  } finally {
    await file.close()
  }
}

/** The free bytes on the log's disk; as good as unlimited when the filesystem cannot tell (the spare is then written, as before). */
function roomLeft(dir: string): number {
  try {
    return freeBytesOf(dir)
  } catch {
    return Number.POSITIVE_INFINITY
  }
}

function ftruncate(fd: number, length: number): Promise<void> {
  return new Promise((resolve, reject) => ftruncateCb(fd, length, (err) => (err ? reject(err) : resolve())))
}

function fdatasync(fd: number): Promise<void> {
  return new Promise((resolve, reject) => fdatasyncCb(fd, (err) => (err ? reject(err) : resolve())))
}

/** Committed positions of consumer groups, one small file each, replaced atomically. */
export class OffsetStore {
  constructor(private readonly dir: string) {
    mkdirSync(dir, { recursive: true })
  }

  read(group: string): number | undefined {
    const path = join(this.dir, `${encodeURIComponent(group)}.offset`)
    if (!existsSync(path)) return undefined
    const n = Number(readFileSync(path, 'utf8').trim())
    return Number.isFinite(n) ? n : undefined
  }

  /**
   * Replaces the group's offset file atomically (write, fsync, rename), off the
   * event loop: a slow disk delays the commit, not the requests being answered.
   */
  async write(group: string, offset: number): Promise<void> {
    const path = join(this.dir, `${encodeURIComponent(group)}.offset`)
    const tmp = `${path}.tmp`
    const file = await open(tmp, 'w')
    try {
      await file.writeFile(String(offset))
      await file.sync()
    } finally {
      await file.close()
    }
    await rename(tmp, path)
  }

  groups(): string[] {
    return readdirSync(this.dir)
      .filter((n) => n.endsWith('.offset'))
      .map((n) => decodeURIComponent(n.slice(0, -7)))
  }

  /** The lowest committed offset of all groups, or undefined when none has committed. */
  minimum(): number | undefined {
    let min: number | undefined
    for (const g of this.groups()) {
      const o = this.read(g)
      if (o !== undefined && (min === undefined || o < min)) min = o
    }
    return min
  }
}
