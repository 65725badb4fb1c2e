import { INTEGRATIONS_TEXT } from '@fl0/contracts/integrations'

/**
 * The part of Paragon's Connect SDK the integrations screen uses (docs:
 * docs.useparagon.com, "SDK / API Reference"). The hosted script defines
 * window.paragon.
 */
export interface IntegrationMetadata {
  type: string
  name: string
  brandColor?: string
  icon?: string
}

export interface ParagonUserState {
  authenticated: boolean
  integrations?: Record<string, { enabled?: boolean } | undefined>
}

export interface ParagonSdk {
  authenticate(projectId: string, userToken: string): Promise<unknown>
  getUser(): ParagonUserState
  /** Synchronous in older SDKs, a promise in newer ones. */
  getIntegrationMetadata(): IntegrationMetadata[] | Promise<IntegrationMetadata[]>
  /** Opens the Connect Portal of one integration. */
  connect(integrationType: string, options?: Record<string, unknown>): unknown
}

declare global {
  interface Window {
    paragon?: ParagonSdk
  }
}

const loading = new Map<string, Promise<ParagonSdk>>()

/**
 * Loads the SDK's script once per address and resolves with window.paragon.
 * Only the integrations screen calls this, and only once fl0 answered a token
 * (Paragon configured) and third-party scripts are allowed.
 */
export function loadParagonSdk(url: string): Promise<ParagonSdk> {
  if (window.paragon) return Promise.resolve(window.paragon)
  let promise = loading.get(url)
  if (!promise) {
    promise = new Promise<ParagonSdk>((resolve, reject) => {
      const script = document.createElement('script')
      script.src = url
      script.async = true
      script.dataset.fl0 = 'paragon-sdk'
      script.onload = () => (window.paragon ? resolve(window.paragon) : reject(new Error(INTEGRATIONS_TEXT.sdkLoadFailed(url))))
      script.onerror = () => reject(new Error(INTEGRATIONS_TEXT.sdkLoadFailed(url)))
      document.head.appendChild(script)
    })
    // A failed load may be retried on the next visit (the network may be back).
    promise.catch(() => loading.delete(url))
    loading.set(url, promise)
  }
  return promise
}
