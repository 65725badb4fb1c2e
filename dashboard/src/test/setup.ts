import { cleanup, configure } from '@testing-library/react'
import { afterEach } from 'vitest'

// findBy*/waitFor give up after 1 s by default. A screen's first render loads its
// lazy chunk, which vite transforms on first import: on two cores busy with the
// other test files that alone can take longer. What they wait for is the same.
configure({ asyncUtilTimeout: 5_000 })

afterEach(() => {
  // Node-environment files (server.test.ts) share this setup: nothing of the DOM to reset there.
  if (typeof document === 'undefined') return
  cleanup()
  sessionStorage.clear()
  for (const c of document.cookie.split(';')) {
    const name = c.split('=')[0]?.trim()
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`
  }
})
