// The page's copy of analytics.js 2.0: the npm package, bundled by
// bundle.ts with esbuild, exposes AnalyticsBrowser for the test pages.
import { AnalyticsBrowser } from '@segment/analytics-next'

;(window as any).AnalyticsBrowser = AnalyticsBrowser
