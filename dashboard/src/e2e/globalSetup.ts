import { ensureDashboardBuilt } from '../../build.ts'

/** The browser tests load the built dashboard from a real fl0: build it first when stale. */
export default function setup() {
  ensureDashboardBuilt()
}
