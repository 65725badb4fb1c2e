import { useEffect, useState } from 'react'
import { useParams } from 'react-router'
import { INTEGRATIONS_TEXT } from '@fl0/contracts/integrations'
import { useApi } from '../../api/context.tsx'
import { ApiError, isSilentError } from '../../api/errors.ts'
import { GENERIC_ERROR } from '../../constants.ts'
import { readToggle } from '../../toggles.ts'
import { Heading } from '../../ui/Heading.tsx'
import { Spinner } from '../../ui/Spinner.tsx'
import { loadParagonSdk, type IntegrationMetadata, type ParagonSdk } from './paragonSdk.ts'

type State =
  | { status: 'loading' }
  | { status: 'not-configured'; message: string }
  | { status: 'error'; message: string }
  | { status: 'unauthenticated' }
  | { status: 'ready'; paragon: ParagonSdk; integrations: IntegrationMetadata[]; enabled: Set<string> }

/** An SDK may reject with an Error, a string or a plain object: the text a person can read. */
function errorText(error: unknown): string {
  if (typeof error === 'string' && error) return error
  if (error && typeof error === 'object' && typeof (error as { message?: unknown }).message === 'string' && (error as { message: string }).message) {
    return (error as { message: string }).message
  }
  return GENERIC_ERROR
}

/**
 * Token from fl0, then the SDK, then authentication, then the integrations:
 * each step's failure is the screen's error text (part 1 §8). The token call
 * comes first so that the third-party script is loaded only when fl0 has a
 * Paragon project configured.
 */
function useParagon(org: string): State {
  const api = useApi()
  const [state, setState] = useState<State>({ status: 'loading' })
  useEffect(() => {
    const controller = new AbortController()
    const set = (s: State) => !controller.signal.aborted && setState(s)
    setState({ status: 'loading' })
    ;(async () => {
      let user
      try {
        user = await api.integrations.paragonUser(org, controller.signal)
      } catch (error) {
        if (isSilentError(error)) return
        if (error instanceof ApiError && error.status === 404) return set({ status: 'not-configured', message: error.message })
        throw error
      }
      const paragon = await loadParagonSdk(user.sdkUrl)
      await paragon.authenticate(user.projectId, user.token)
      const me = paragon.getUser()
      if (!me?.authenticated) return set({ status: 'unauthenticated' })
      const integrations = await paragon.getIntegrationMetadata()
      const enabled = new Set(Object.entries(me.integrations ?? {}).flatMap(([type, i]) => (i?.enabled ? [type] : [])))
      set({ status: 'ready', paragon, integrations: Array.isArray(integrations) ? integrations : [], enabled })
    })().catch((error) => {
      if (!isSilentError(error)) set({ status: 'error', message: errorText(error) })
    })
    return () => controller.abort()
  }, [api, org])
  return state
}

/** The error text, aligned with the heading (ErrorPanel's margin suits panels inside cards). */
function Alert({ message }: { message: string }) {
  return (
    <div role="alert" className="max-w-2xl rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-800">
      {message}
    </div>
  )
}

function IntegrationButton({ integration, enabled, onConnect }: { integration: IntegrationMetadata; enabled: boolean; onConnect: () => void }) {
  return (
    <li>
      <button
        type="button"
        onClick={onConnect}
        className="flex w-full items-center gap-3 rounded-lg border border-slate-200 bg-white p-4 text-left shadow-sm transition hover:border-indigo-300 hover:shadow"
        style={integration.brandColor ? { borderLeftColor: integration.brandColor, borderLeftWidth: 4 } : undefined}
      >
        {integration.icon ? (
          <img src={integration.icon} alt="" className="h-8 w-8 shrink-0 object-contain" />
        ) : (
          <span aria-hidden className="flex h-8 w-8 shrink-0 items-center justify-center rounded bg-slate-100 text-sm font-semibold text-slate-600">
            {integration.name.slice(0, 1)}
          </span>
        )}
        <span className="min-w-0 flex-1 truncate font-medium">{integration.name}</span>
        {enabled && <span className="rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-700">Connected</span>}
      </button>
    </li>
  )
}

function ParagonIntegrations({ org }: { org: string }) {
  const state = useParagon(org)
  switch (state.status) {
    case 'loading':
      return <Spinner label="Loading integrations" />
    case 'not-configured':
      return (
        <div className="max-w-2xl rounded-lg border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900" role="note">
          {state.message}
        </div>
      )
    case 'error':
      return <Alert message={state.message} />
    case 'unauthenticated':
      return <Alert message={INTEGRATIONS_TEXT.unauthenticated} />
    case 'ready':
      if (state.integrations.length === 0) return <p className="text-sm text-slate-500">{INTEGRATIONS_TEXT.noIntegrations}</p>
      return (
        <ul aria-label="Integrations" className="grid max-w-4xl grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {state.integrations.map((i) => (
            <IntegrationButton key={i.type} integration={i} enabled={state.enabled.has(i.type)} onConnect={() => void state.paragon.connect(i.type)} />
          ))}
        </ul>
      )
  }
}

/**
 * Integrations (part 1 §2): the integrations Paragon's Connect SDK offers the
 * signed-in user, each opening its Connect Portal. With the
 * fl0-disable-3rd-party toggle on, the SDK is not loaded at all.
 */
export default function IntegrationsPage() {
  const { organization = '' } = useParams()
  return (
    <div className="p-8">
      <Heading>{INTEGRATIONS_TEXT.heading}</Heading>
      {readToggle('disable-3rd-party') ? (
        <div className="max-w-2xl rounded-lg border border-slate-200 bg-white p-4 text-sm text-slate-700" role="note">
          {INTEGRATIONS_TEXT.thirdPartyDisabled} <code className="whitespace-nowrap rounded bg-slate-100 px-1 text-xs">{INTEGRATIONS_TEXT.thirdPartyToggle}</code>.
        </div>
      ) : (
        <ParagonIntegrations org={organization} />
      )}
    </div>
  )
}
