import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { KeyObject } from 'node:crypto'
import { jwtVerify } from 'jose'

/**
 * A STAND-IN for Paragon, which browser tests cannot reach: its hosted Connect
 * SDK script (cdn.useparagon.com) and the service behind it. fl0 loads the SDK
 * from PARAGON_SDK_URL, so a test points that here. Everything on fl0's side
 * is real (the token signed with the configured key, the configuration, the
 * screen); only Paragon is replaced, by the surface its docs describe:
 * window.paragon with authenticate(projectId, token), getUser(),
 * getIntegrationMetadata() and connect(type).
 *
 * Like Paragon, it checks the user token against the public half of the
 * project's signing key (RS256, aud useparagon.com/{projectId}); the test
 * registers that key, and may swap it (as rotating the key in Paragon's
 * dashboard would) to make authentication fail. It can also report the user
 * unauthenticated, and hold its answer to authenticate so the screen's loader
 * can be seen.
 */
export interface ParagonStandIn {
  /** The origin; the SDK is at `${url}/sdk/index.js`. */
  url: string
  sdkUrl: string
  /** Paths asked for, in order. */
  hits: string[]
  /** Subjects of the tokens that verified, per project. */
  verified: Array<{ projectId: string; sub: string }>
  registerPublicKey(key: KeyObject): void
  /** false: authenticate succeeds, but getUser() reports the user unauthenticated. */
  setSessionsActive(active: boolean): void
  /** Holds every answer to authenticate until the returned function is called. */
  holdAuthentication(): () => void
  close(): Promise<void>
}

export const STAND_IN_INTEGRATIONS = [
  { type: 'salesforce', name: 'Salesforce', brandColor: '#057ACF' },
  { type: 'hubspot', name: 'HubSpot', brandColor: '#F67600' },
  { type: 'slack', name: 'Slack', brandColor: '#4A154B' },
]

/** The SDK's script, as the browser gets it: it talks to the stand-in's origin, as the real one talks to Paragon's. */
const sdkScript = (origin: string) => `/* Paragon Connect SDK: TEST STAND-IN (dashboard/src/e2e/paragonStandIn.ts), not Paragon's code */
(function () {
  var origin = ${JSON.stringify(origin)};
  var state = { user: { authenticated: false }, metadata: [] };
  function closePortal() {
    var open = document.getElementById('paragon-stand-in-portal');
    if (open) open.remove();
  }
  window.paragon = {
    authenticate: function (projectId, token) {
      return fetch(origin + '/projects/' + encodeURIComponent(projectId) + '/sdk/authenticate', { method: 'POST', body: token })
        .then(function (res) {
          return res.json().then(function (body) {
            if (!res.ok) throw new Error(body.message);
            state.user = body.user;
            state.metadata = body.metadata;
          });
        });
    },
    getUser: function () { return state.user; },
    getIntegrationMetadata: function () { return state.metadata; },
    connect: function (type) {
      var meta = state.metadata.filter(function (m) { return m.type === type; })[0];
      closePortal();
      var portal = document.createElement('div');
      portal.id = 'paragon-stand-in-portal';
      portal.setAttribute('role', 'dialog');
      portal.setAttribute('aria-label', 'Connect Portal');
      portal.style.cssText = 'position:fixed;inset:auto 24px 24px auto;z-index:99;width:320px;padding:16px;background:#fff;border:1px solid #cbd5e1;border-radius:8px;box-shadow:0 10px 30px rgba(0,0,0,.2);font:14px sans-serif';
      var title = document.createElement('p');
      title.textContent = 'Connect ' + (meta ? meta.name : type);
      title.style.cssText = 'font-weight:600;margin:0 0 12px';
      var close = document.createElement('button');
      close.textContent = 'Close';
      close.onclick = closePortal;
      portal.appendChild(title);
      portal.appendChild(close);
      document.body.appendChild(portal);
    }
  };
})();
`

const icon = (name: string, color: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="${color}"/><text x="16" y="22" font-family="sans-serif" font-size="16" font-weight="bold" fill="#fff" text-anchor="middle">${name[0]}</text></svg>`

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

export async function startParagonStandIn(publicKey: KeyObject): Promise<ParagonStandIn> {
  let key = publicKey
  let sessionsActive = true
  let held: Promise<void> | undefined
  const hits: string[] = []
  const verified: ParagonStandIn['verified'] = []
  let origin = ''

  const send = (res: ServerResponse, status: number, type: string, body: string) => {
    // Loaded by the dashboard's page, from another origin.
    res.writeHead(status, { 'content-type': type, 'access-control-allow-origin': '*', 'cache-control': 'no-store' }).end(body)
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const path = new URL(req.url ?? '/', origin).pathname
    hits.push(`${req.method} ${path}`)
    if (req.method === 'GET' && path === '/sdk/index.js') return send(res, 200, 'text/javascript', sdkScript(origin))
    const iconMatch = /^\/icons\/([a-z]+)\.svg$/.exec(path)
    const known = iconMatch && STAND_IN_INTEGRATIONS.find((i) => i.type === iconMatch[1])
    if (req.method === 'GET' && known) return send(res, 200, 'image/svg+xml', icon(known.name, known.brandColor))
    const auth = /^\/projects\/([^/]+)\/sdk\/authenticate$/.exec(path)
    if (req.method === 'POST' && auth) {
      const projectId = decodeURIComponent(auth[1]!)
      const token = await readBody(req)
      if (held) await held
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['RS256'], audience: `useparagon.com/${projectId}` })
        verified.push({ projectId, sub: String(payload.sub) })
        const metadata = STAND_IN_INTEGRATIONS.map((i) => ({ ...i, icon: `${origin}/icons/${i.type}.svg` }))
        const user = { authenticated: sessionsActive, userId: payload.sub, integrations: { slack: { enabled: true } } }
        return send(res, 200, 'application/json', JSON.stringify({ user, metadata }))
      } catch (err) {
        return send(res, 401, 'application/json', JSON.stringify({ message: `Invalid user token: ${(err as Error).message}` }))
      }
    }
    return send(res, 404, 'text/plain', 'not found')
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err) => send(res, 500, 'text/plain', String(err)))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  return {
    url: origin,
    sdkUrl: `${origin}/sdk/index.js`,
    hits,
    verified,
    registerPublicKey: (k) => void (key = k),
    setSessionsActive: (active) => void (sessionsActive = active),
    holdAuthentication() {
      let release!: () => void
      held = new Promise<void>((resolve) => (release = resolve))
      return () => {
        held = undefined
        release()
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
