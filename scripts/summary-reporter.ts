import type { Reporter, TestModule } from 'vitest/node'

/**
 * Prints one plain closing line, "N passed, N failed, N skipped", after vitest's
 * own summary, so that CI logs state the count in a form any reader can parse.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    let passed = 0
    let failed = 0
    let skipped = 0
    for (const mod of testModules) {
      let failedHere = 0
      for (const test of mod.children.allTests()) {
        const state = test.result().state
        if (state === 'passed') passed++
        else if (state === 'failed') failedHere++
        else skipped++
      }
      // A file that failed outside its tests (an import, a beforeAll) counts as one failure.
      if (mod.state() === 'failed' && failedHere === 0) failedHere = 1
      failed += failedHere
    }
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`)
  }
}
