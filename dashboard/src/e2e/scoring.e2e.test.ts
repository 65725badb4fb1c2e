import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { LEAK_TEXT, type ActivityEvents, type Correlation, type ScoringModelDetail, type ScoringModelList } from '@fl0/contracts/scoring'
import { DEFAULT_RULE } from '@fl0/demo'
import { launchChromium, openPage, runBrowserTests, screenshot } from './harness.ts'
import { demoUrl, signUpToDemo, startDemoFl0, type DemoFl0 } from './demoFl0.ts'

/**
 * AI scoring in Chromium against a real fl0 filled with the demo's events:
 * the empty gallery, a model run from the modal (its rules first, and its
 * guidance on what can be learned) that trains to completion in the server's
 * runner, each of its tabs (the figures a reader judges it by, the backtest
 * drawn as a chart), a rebuild with changed 'In model' selections that trains
 * again, and deleting it. Screens are shot at 1440×900 and 1280×720.
 *
 * The demo plants a rule: people who connect an integration and invite a
 * colleague upgrade far more often (DEFAULT_RULE). The data set is larger
 * than the other browser tests' (1,000 people over 90 days) so that the last 30
 * days hold enough upgrades to learn from, and the planted events come out on
 * top of Correlation.
 */
const DEMO = { seed: 7, companies: 80, people: 1000, days: 90 }
/** Training runs as a job: the screens poll until it is done. Generous, for a loaded machine. */
const TRAINING_MS = 300_000

describe.skipIf(!runBrowserTests)('AI scoring, in Chromium', () => {
  let fl0: DemoFl0
  let browser: Browser
  let context: BrowserContext
  let page: Page
  let errors: string[]
  let gallery = ''
  let modelUrl = ''
  let analysisId = ''
  const name = 'Who upgrades'
  const [integration, invite] = DEFAULT_RULE.given as [string, string]
  /** A funnel that starts with signing up: users active before a date range have signed up already, so none reaches it in the range. */
  const funnel = 'Signed up, then invited'

  const api = <T>(path: string) => page.request.get(`${fl0.url}/api-v2/orgs/demo/scoring${path}`).then((r) => r.json() as Promise<T>)
  const card = (title: string) => page.getByRole('article', { name: title })
  const tab = (label: string) => page.getByRole('navigation', { name: 'Scoring model' }).getByRole('link', { name: label, exact: true })
  const inModel = (label: string) => page.getByRole('checkbox', { name: `In model: ${label}`, exact: true })
  const events = () => page.getByRole('region', { name: 'Events' })
  /** The Correlation table's event names (without a leak's badge), in order. */
  const eventNames = () => events().locator('table tbody tr').evaluateAll((trs) => trs.map((tr) => tr.querySelectorAll('td')[1]?.querySelector('button')?.textContent?.replace('›', '').trim() ?? ''))
  /** The shell scrolls inside <main>, so a full-page shot is one screen: the rest is shot a screen further down each time (at most 4 screens). */
  async function scrolled(name: string) {
    const main = page.locator('main')
    const { height, view } = await main.evaluate((m) => ({ height: m.scrollHeight, view: m.clientHeight }))
    for (let i = 1; i * view < height && i < 4; i++) {
      await main.evaluate((m, top) => m.scrollTo(0, top), i * view)
      await screenshot(page, `${name}-${i + 1}`)
    }
    await main.evaluate((m) => m.scrollTo(0, 0))
  }
  /** The page at both sizes the dashboard is checked at, back at the larger after. */
  async function shots(name: string) {
    await screenshot(page, `${name}-1440`)
    await scrolled(`${name}-1440`)
    await page.setViewportSize({ width: 1280, height: 720 })
    await screenshot(page, `${name}-1280`)
    await scrolled(`${name}-1280`)
    await page.setViewportSize({ width: 1440, height: 900 })
  }
  /** Waits for what shows a finished training; past the time, fails saying what the server and the page said. */
  async function finished(done: ReturnType<Page['locator']>, what: string) {
    try {
      await done.waitFor({ timeout: TRAINING_MS })
    } catch (error) {
      await screenshot(page, `scoring-timeout-${what}`)
      const model = await api<unknown>(`/scoring-model/${analysisId}`).catch((e: unknown) => String(e))
      throw new Error(`${what}: not finished after ${TRAINING_MS} ms; the server says ${JSON.stringify(model)}; the page says ${JSON.stringify(await page.locator('main').innerText().catch(() => ''))}`, { cause: error })
    }
  }
  /** The gate's content is on screen: the model has completed (a failure's reason fails the test at once, with it). */
  async function completed() {
    const failedView = page.locator('main [data-status="failed"]')
    await finished(page.getByRole('navigation', { name: 'Scoring model' }).or(failedView), 'model page')
    if ((await failedView.count()) > 0) throw new Error(`the model failed: ${await failedView.innerText()}`)
  }

  beforeAll(async () => {
    // FL0_E2E_LOG=info shows fl0's log (the runner's 'training started/completed') when a training needs looking into.
    ;[fl0, browser] = await Promise.all([startDemoFl0(DEMO, process.env.FL0_E2E_LOG ? { LOG_LEVEL: process.env.FL0_E2E_LOG } : {}), launchChromium()])
    ;({ context, page, errors } = await openPage(browser, { viewport: { width: 1440, height: 900 } }))
    gallery = demoUrl(fl0, '/scoring')
  }, 240_000)
  afterAll(async () => {
    await browser?.close()
    await fl0?.stop()
  })

  it("shows 'AI Scoring Models' with 'No scoring models found' before any model exists", async () => {
    await signUpToDemo(page, fl0)
    // The metric the model predicts: who upgraded (the planted rule's outcome).
    const res = await page.request.post(`${fl0.url}/api/orgs/demo/metrics`, {
      data: { name: 'Upgrades', description: 'Plan upgrades', category: 'growth', definition: { events: [{ name: DEFAULT_RULE.conversion }], dateRange: 'last30Days', graphType: 'line' } },
    })
    expect(res.status()).toBe(201)
    const funnelRes = await page.request.post(`${fl0.url}/api/orgs/demo/metrics`, {
      data: { name: funnel, category: 'growth', definition: { events: [{ name: 'Signed Up' }, { name: invite }], operation: 'ordered', dateRange: 'last30Days', graphType: 'funnel' } },
    })
    expect(funnelRes.status()).toBe(201)
    await page.goto(gallery)
    await page.getByRole('heading', { level: 1, name: 'AI Scoring Models' }).waitFor()
    await page.getByText('No scoring models found').waitFor()
    await screenshot(page, 'scoring-01-empty')
  })

  it("runs a model from 'Run new scoring model': its rules, the metric filling the name, unfinished filters not sent", async () => {
    await page.getByRole('button', { name: 'New model' }).click()
    const dialog = page.getByRole('dialog', { name: 'Run new scoring model' })
    await dialog.getByRole('button', { name: 'Run model' }).click()
    await dialog.getByText('Analysis name must be provided').waitFor()
    await dialog.getByText('Metric must be given').waitFor()
    await dialog.getByLabel('Name').fill('x'.repeat(51))
    await dialog.getByRole('button', { name: 'Run model' }).click()
    await dialog.getByText('Analysis name must have at most 50 characters').waitFor()
    await dialog.getByLabel('Name').fill('')
    // A metric that cannot be learned: the dialog says why in a sentence, and holds the run back.
    const guidance = dialog.getByRole('status', { name: 'Can this model learn?' })
    await dialog.getByLabel('Metric').selectOption({ label: funnel })
    await guidance.and(page.locator('[data-learnable="false"]')).waitFor()
    expect(await guidance.innerText()).toMatch(/^\S.{40,}[.:]/)
    expect(await dialog.getByRole('button', { name: 'Run model' }).isDisabled()).toBe(true)
    await shots('scoring-02a-run-modal-not-learnable')
    await dialog.getByLabel('Name').fill('')
    // The default date range of the planted metric can be learned: what it learns from, and Run model offered.
    await dialog.getByLabel('Metric').selectOption({ label: 'Upgrades' })
    await guidance.and(page.locator('[data-learnable="true"]')).waitFor()
    expect(await guidance.innerText()).toMatch(/^A model learns from the [\d,]+ users active before .+: [\d,]+ of them \([\d.]+%\) reached "Upgrades" between .+\.$/)
    expect(await dialog.getByRole('button', { name: 'Run model' }).isDisabled()).toBe(false)
    expect(await dialog.getByLabel('Name').inputValue()).toBe('Upgrades')
    await dialog.getByLabel('Name').fill(name)
    // An excluded audience of one finished filter (nobody has this plan) and one left unfinished.
    await dialog.getByRole('button', { name: 'Add filter' }).click()
    await dialog.getByRole('combobox', { name: 'Exclusion 1 trait' }).click()
    await dialog.getByRole('option', { name: 'plan', exact: true }).click()
    await dialog.getByLabel('Exclusion 1 operation').selectOption('is')
    await dialog.getByRole('combobox', { name: 'Exclusion 1 value' }).fill('no-such-plan')
    await dialog.getByRole('button', { name: 'Add filter' }).click()
    await dialog.getByRole('combobox', { name: 'Exclusion 2 trait' }).click()
    await dialog.getByRole('option', { name: 'plan', exact: true }).click()
    await shots('scoring-02-run-modal')
    const sent = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/scoring-models/create-new-model'))
    await dialog.getByRole('button', { name: 'Run model' }).click()
    expect((await sent).postDataJSON()).toEqual({
      name,
      metricId: expect.any(String),
      dateRange: 'last30Days',
      excludedAudience: { filters: [{ trait: 'plan', operation: 'is', value: 'no-such-plan' }], aggregate: 'and', audienceType: 'user' },
      refresh: 'daily',
    })
    await dialog.waitFor({ state: 'detached' })
    // Its card shows it training (it may be quick: either the indicator or already the donut).
    await card(name).waitFor()
    const { scoringModels } = await api<ScoringModelList>('/scoring-models')
    expect(scoringModels.map((m) => m.name)).toEqual([name])
    analysisId = scoringModels[0]!.analysisId
    await screenshot(page, 'scoring-03-training-card')
  })

  it('trains to completion: the card turns into the ratings donut with the user count and percentages', async () => {
    // Done either way: the donut, or the failure's reason (which fails the test with it).
    const donut = card(name).getByRole('img', { name: /^Ratings of [\d,]+ users$/ })
    await finished(donut.or(card(name).getByRole('alert')), 'gallery')
    if ((await card(name).getByRole('alert').count()) > 0) throw new Error(`the model failed: ${await card(name).innerText()}`)
    const { scoringModels } = await api<ScoringModelList>('/scoring-models')
    const model = scoringModels[0]!
    expect(model.status).toBe('completed')
    expect(model.totalUsers).toBeGreaterThan(100)
    await card(name).getByRole('img', { name: `Ratings of ${model.totalUsers.toLocaleString('en-US')} users` }).waitFor()
    const shown = await card(name).getByRole('list', { name: 'Ratings' }).getByRole('listitem').allInnerTexts()
    expect(shown.map((s) => s.split(/\s+/)[0])).toEqual(['Poor', 'Fair', 'Good', 'Excellent'])
    const total = shown.reduce((sum, s) => sum + Number(s.match(/([\d.]+)%/)![1]), 0)
    expect(total).toBeGreaterThan(97)
    expect(total).toBeLessThan(103)
    // Whether the ratings can be trusted, beside them.
    const verdict = card(name).locator('[data-verdict]')
    expect(await verdict.getAttribute('data-verdict')).toBe(model.verdict)
    if (model.verdict !== 'met') expect(await verdict.innerText()).toMatch(/\s— see Correlation$/)
    await shots('scoring-04-gallery-completed')
  }, TRAINING_MS + 60_000)

  it('Correlation: the summary, Activity mode, rating counts, the planted events on top, expanding to properties and values', async () => {
    await card(name).getByRole('link', { name }).click()
    await page.waitForURL(new RegExp(`/scoring/${analysisId}$`))
    modelUrl = page.url()
    await page.getByRole('heading', { level: 1, name }).waitFor()
    expect(await page.getByTestId('metric-name').innerText()).toBe('Upgrades')
    await completed()
    const summary = page.getByRole('region', { name: 'Summary' })
    for (const label of ['Date range', 'Training data size', 'Audience size', 'Total factors', 'Accuracy', 'AUC']) await summary.getByText(label, { exact: true }).waitFor()
    const correlation = await api<Correlation>(`/scoring-model/${analysisId}/correlation`)
    // Accuracy beside the baseline of always answering the commoner outcome; AUC; each explained in a line.
    const accuracy = await summary.locator('[data-fact="Accuracy"]').innerText()
    expect(accuracy).toMatch(/^Accuracy\s*\d+\.\d%\s*vs \d+\.\d% always-(no|yes) baseline(no better than the baseline)?\s*Share of held-out users/)
    expect(accuracy).toContain(`vs ${(correlation.baselineAccuracy * 100).toFixed(1)}% always-`)
    expect(await summary.locator('[data-fact="AUC"]').innerText()).toMatch(/^AUC\s*\d+\.\d%\s*on [\d,]+ held-out users\s*Chance that a user who reached the metric/)
    // Lift per rating, and the verdict against the bar in a box of its colour.
    const lift = page.getByRole('region', { name: 'Lift by rating' })
    expect(await lift.getByRole('row').allInnerTexts()).toHaveLength(6)
    const verdict = lift.getByRole('note', { name: 'Verdict' })
    expect(await verdict.getAttribute('data-verdict')).toBe(correlation.quality.verdict)
    expect(await verdict.innerText()).toMatch(correlation.quality.verdict === 'met' ? /These ratings meet the bar/ : /These ratings fall short|too few to tell/)
    expect(await page.getByRole('radio', { name: 'Fit' }).isDisabled()).toBe(true)
    expect(await page.getByRole('radio', { name: 'Activity' }).getAttribute('aria-checked')).toBe('true')
    await page.getByRole('list', { name: 'Rating counts' }).waitFor()
    await events().locator('table tbody tr').first().waitFor()
    await shots('scoring-05-correlation')
    const names = await eventNames()
    expect(names.slice(0, 3)).toEqual(expect.arrayContaining([integration, invite]))
    // The first page holds 20 at most; search narrows by name.
    expect(names.length).toBeLessThanOrEqual(20)
    await page.getByRole('searchbox', { name: 'Search events' }).fill(integration.slice(0, 8))
    await expect.poll(eventNames, { timeout: 10_000 }).toEqual([integration])
    await page.getByRole('button', { name: integration, exact: true }).click()
    const properties = page.getByRole('list', { name: `Properties of ${integration}` })
    await properties.waitFor()
    await screenshot(page, 'scoring-05-correlation-expanded')
    // The metric's own event is left out of the features: badged, its box disabled with the reason.
    await page.getByRole('searchbox', { name: 'Search events' }).fill(DEFAULT_RULE.conversion)
    await expect.poll(eventNames, { timeout: 10_000 }).toEqual([DEFAULT_RULE.conversion])
    await events().getByText(LEAK_TEXT.metric).waitFor()
    expect(await inModel(DEFAULT_RULE.conversion).isDisabled()).toBe(true)
    expect(await inModel(DEFAULT_RULE.conversion).getAttribute('title')).toBe(LEAK_TEXT.metric)
    await shots('scoring-05-correlation-leak')
    await page.getByRole('searchbox', { name: 'Search events' }).fill('')
    await expect.poll(async () => (await eventNames()).length, { timeout: 10_000 }).toBeGreaterThan(3)
  })

  it("Model output: the rating shares, users by score linking to their events, a row's images drawn by the server", async () => {
    await tab('Model output').click()
    await page.waitForURL(/\/model-output$/)
    await page.getByRole('list', { name: 'Rating shares' }).waitFor()
    const { quality } = await api<Correlation>(`/scoring-model/${analysisId}/correlation`)
    // Ratings that fall short say so beside the shares, in the full sentence.
    if (quality.verdict !== 'met') await page.getByRole('note', { name: 'Verdict' }).waitFor()
    const first = page.locator('table tbody tr').first()
    await first.getByRole('meter', { name: 'Score' }).waitFor()
    const scores = await page.getByRole('meter', { name: 'Score' }).evaluateAll((els) => els.map((e) => Number(e.getAttribute('aria-valuenow'))))
    expect(scores.length).toBeGreaterThan(1)
    expect([...scores].sort((a, b) => b - a)).toEqual(scores)
    const link = first.getByRole('link')
    expect(await link.getAttribute('href')).toMatch(/\/organizations\/demo\/people-ai\/users\/[^/]+\/events$/)
    await first.getByRole('button', { name: '1', exact: true }).click()
    const images = page.locator('table img')
    await images.first().waitFor()
    await expect.poll(() => images.evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0)), { timeout: 20_000 }).toEqual([true, true])
    await shots('scoring-06-model-output')
    await link.click()
    await page.waitForURL(/\/people-ai\/users\/[^/]+\/events$/)
    await page.goBack()
    await page.waitForURL(/\/model-output$/)
  })

  it("Settings: Model name, Metric, Date range and Excluded audience as the model was run; a metric that cannot be learned not saved; 'Refresh ratings' saved with them", async () => {
    await tab('Settings').click()
    await page.waitForURL(/\/settings$/)
    expect(await page.getByLabel('Model name').inputValue()).toBe(name)
    expect(await page.getByLabel('Metric').locator('option:checked').innerText()).toBe('Upgrades')
    expect(await page.getByRole('radiogroup', { name: 'Date range' }).getByRole('radio', { checked: true }).innerText()).toBe('30D')
    expect(await page.getByRole('combobox', { name: 'Exclusion 1 trait' }).inputValue()).toBe('plan')
    expect(await page.getByRole('combobox', { name: 'Exclusion 1 value' }).inputValue()).toBe('no-such-plan')
    // When the users were last scored: in the header and under the choice.
    await page.getByTestId('ratings-refreshed').first().waitFor()
    expect(await page.getByTestId('ratings-refreshed').first().innerText()).toMatch(/^Ratings refreshed [A-Z][a-z]{2} \d{1,2}, \d{4}$/)
    // The run dialog's check, on the setting as edited: green for the model as trained.
    const form = page.getByRole('form', { name: 'Model settings' })
    const guidance = form.getByRole('status', { name: 'Can this model learn?' })
    const save = form.getByRole('button', { name: 'Save settings' })
    await guidance.and(page.locator('[data-learnable="true"]')).waitFor()
    // A metric that cannot be learned: the same sentence in amber, and the change is not saved.
    let saves = 0
    const countSaves = (r: { method(): string; url(): string }) => {
      if (r.method() === 'POST' && r.url().endsWith('/settings/saveSettings')) saves++
    }
    page.on('request', countSaves)
    await form.getByLabel('Metric').selectOption({ label: funnel })
    await guidance.and(page.locator('[data-learnable="false"]')).waitFor()
    expect(await guidance.innerText()).toMatch(/^\S.{40,}[.:]/)
    expect(await save.isDisabled()).toBe(true)
    expect(await save.getAttribute('aria-describedby')).toBe(await guidance.getAttribute('id'))
    await form.getByLabel('Model name').press('Enter')
    await shots('scoring-07a-settings-not-learnable')
    expect(saves).toBe(0)
    page.off('request', countSaves)
    // Back to the model's metric: learnable again, Save offered.
    await form.getByLabel('Metric').selectOption({ label: 'Upgrades' })
    await guidance.and(page.locator('[data-learnable="true"]')).waitFor()
    expect(await save.isDisabled()).toBe(false)
    const refresh = page.getByLabel('Refresh ratings')
    expect(await refresh.locator('option:checked').innerText()).toBe('Every day')
    await refresh.selectOption({ label: 'Every week' })
    await shots('scoring-07-settings')
    const saved = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/settings/saveSettings'))
    await page.getByRole('button', { name: 'Save settings' }).click()
    const response = await saved
    expect(response.status()).toBe(200)
    expect(response.request().postDataJSON()).toMatchObject({ name, refresh: 'weekly' })
    await page.getByText('Settings saved').waitFor()
    // Read back from the server: the schedule as saved, the model not retrained for it.
    expect(await api<ScoringModelDetail>(`/scoring-model/${analysisId}`)).toMatchObject({ refresh: 'weekly', status: 'completed' })
    await page.reload()
    await completed()
    await expect.poll(() => page.getByLabel('Refresh ratings').locator('option:checked').innerText(), { timeout: 10_000 }).toBe('Every week')
  })

  it("Backtest predictions: 'Prediction accuracy' once, drawn as a chart with its tables; the JSON only after the toggle; the server's image a download", async () => {
    await tab('Backtest predictions').click()
    await page.waitForURL(/\/backtest-predictions$/)
    const chart = page.getByRole('img', { name: 'Prediction accuracy by score' })
    await chart.locator('canvas').first().waitFor()
    expect(await page.getByText('Prediction accuracy', { exact: true }).count()).toBe(1)
    expect(await page.getByRole('table', { name: 'Users by score' }).locator('tbody tr').count()).toBe(10)
    await page.getByRole('region', { name: 'Backtest summary' }).getByText(/always-(no|yes) baseline/).waitFor()
    await page.getByRole('region', { name: 'Lift by rating' }).getByRole('note', { name: 'Verdict' }).waitFor()
    const top = page.getByRole('region', { name: 'Top predictions' })
    await top.locator('tbody tr').first().waitFor()
    expect(await top.locator('tbody tr').count()).toBeGreaterThan(0)
    expect(await top.locator('tbody tr').count()).toBeLessThanOrEqual(20)
    // The server's picture is a download, not shown beside the chart.
    expect(await page.getByRole('img', { name: 'Prediction accuracy', exact: true }).count()).toBe(0)
    const image = await page.request.get(new URL((await page.getByRole('link', { name: 'Download image' }).getAttribute('href'))!, fl0.url).toString())
    expect([image.status(), image.headers()['content-type']]).toEqual([200, 'image/png'])
    await shots('scoring-08-backtest')
    expect(await page.getByLabel('Predictions JSON').count()).toBe(0)
    await page.getByRole('button', { name: 'Show JSON' }).click()
    const predictions = JSON.parse(await page.getByLabel('Predictions JSON').innerText()) as { users: number; predictions: unknown[] }
    expect(predictions.users).toBeGreaterThan(0)
    await page.getByRole('button', { name: 'Hide JSON' }).click()
    expect(await page.getByLabel('Predictions JSON').count()).toBe(0)
  })

  it("rebuilds with changed selections: nothing sent until 'Rebuild model', then 'Rebuilding model...', trained again without the excluded event", async () => {
    await tab('Correlation').click()
    await page.waitForURL(new RegExp(`/scoring/${analysisId}$`))
    await inModel(invite).waitFor()
    let rebuilds = 0
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/rebuild-model')) rebuilds++
    })
    // The invite event out; a property of the integration event in (which keeps its event in).
    await inModel(invite).uncheck()
    await page.getByRole('button', { name: integration, exact: true }).click()
    const property = page.getByRole('list', { name: `Properties of ${integration}` }).getByRole('checkbox').first()
    const propertyLabel = (await property.getAttribute('aria-label'))!.replace(`In model: ${integration} `, '')
    await property.check()
    expect(await inModel(integration).isChecked()).toBe(true)
    expect(rebuilds).toBe(0)
    const before = await api<ScoringModelDetail>(`/scoring-model/${analysisId}`)
    expect(before.featureSelections.excludedEvents).not.toContain(invite)
    const sent = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/rebuild-model'))
    await page.getByRole('button', { name: 'Rebuild model' }).click()
    const body = (await sent).postDataJSON() as { featureSelections: ScoringModelDetail['featureSelections'] }
    expect(body.featureSelections.excludedEvents).toContain(invite)
    expect(body.featureSelections.includedProperties).toContainEqual({ event: integration, property: propertyLabel })
    await page.getByText('Rebuilding model...').waitFor()
    // The page asks for the model again at once: it is queued (the next call comes 2 s later, so the view stays that long at least).
    await page.getByRole('status', { name: 'Training model' }).waitFor()
    await screenshot(page, 'scoring-09-rebuilding')
    await completed()
    const after = await api<ScoringModelDetail>(`/scoring-model/${analysisId}`)
    expect(after.status).toBe('completed')
    expect(after.trainedAt).not.toBe(before.trainedAt)
    expect(after.featureSelections.excludedEvents).toContain(invite)
    expect(after.featureSelections.includedProperties).toContainEqual({ event: integration, property: propertyLabel })
    // Read back from the server after a reload: the boxes as rebuilt.
    await page.reload()
    await completed()
    await inModel(invite).waitFor()
    expect(await inModel(invite).isChecked()).toBe(false)
    expect(await inModel(integration).isChecked()).toBe(true)
    // The model itself was trained without it: the server lists it as out of the model.
    const { events } = await api<ActivityEvents>(`/scoring-model/${analysisId}/correlation/activity/events?search=${encodeURIComponent(invite)}`)
    expect(events.find((e) => e.name === invite)?.inModel).toBe(false)
    await screenshot(page, 'scoring-10-rebuilt')
  }, TRAINING_MS + 60_000)

  it("deletes it after the confirmation, with 'Scoring model has been deleted'", async () => {
    await page.goto(modelUrl)
    await page.getByRole('button', { name: 'Delete' }).click()
    const dialog = page.getByRole('dialog', { name: 'Delete scoring model' })
    await dialog.getByText(`Are you sure you want to delete the scoring model "${name}"?`).waitFor()
    await screenshot(page, 'scoring-11-delete')
    await dialog.getByRole('button', { name: 'Delete' }).click()
    await page.waitForURL(/\/organizations\/demo\/scoring$/)
    await page.getByText('Scoring model has been deleted').waitFor()
    await page.getByText('No scoring models found').waitFor()
    expect((await api<ScoringModelList>('/scoring-models')).scoringModels).toEqual([])
    expect(errors).toEqual([])
  })
})
