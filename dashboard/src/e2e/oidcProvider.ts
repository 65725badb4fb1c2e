import { createHash, randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { exportJWK, generateKeyPair, SignJWT } from 'jose'

/**
 * A small OpenID Connect provider on 127.0.0.1 for the browser tests: the
 * authorization code flow with PKCE as a browser meets it (discovery, an
 * authorize page that signs one person in, prompt=none answered by its own
 * session cookie, a token endpoint with CORS, end_session). Its ID tokens are
 * RS256-signed with a key of its own, published at jwks_uri, which is what
 * fl0 verifies them against.
 */
export interface TestProvider {
  issuer: string
  clientId: string
  /** The person its sign-in page signs in. */
  person: { sub: string; email: string; name: string }
  /** Paths the browser asked for, in order (to tell a silent sign-in from a visible one). */
  hits: string[]
  close(): Promise<void>
}

export async function startTestProvider(person = { sub: 'tess-1', email: 'tess@example.com', name: 'Tess Ter' }): Promise<TestProvider> {
  const { privateKey, publicKey } = await generateKeyPair('RS256')
  const jwk = { ...(await exportJWK(publicKey)), kid: 'e2e-1', alg: 'RS256', use: 'sig' }
  const clientId = 'fl0-dashboard'
  const codes = new Map<string, { challenge: string; nonce?: string; redirectUri: string }>()
  const sessions = new Set<string>()
  const hits: string[] = []
  let issuer = ''

  const cors = (res: ServerResponse) => {
    res.setHeader('access-control-allow-origin', '*')
    res.setHeader('access-control-allow-headers', 'content-type, authorization')
  }
  const json = (res: ServerResponse, body: unknown, status = 200) => {
    cors(res)
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
  }
  const redirect = (res: ServerResponse, to: string, headers: Record<string, string> = {}) => res.writeHead(302, { location: to, ...headers }).end()
  const sessionOf = (req: IncomingMessage) => /(?:^|;\s*)idp_session=([^;]+)/.exec(req.headers.cookie ?? '')?.[1]
  const body = (req: IncomingMessage) =>
    new Promise<URLSearchParams>((resolve) => {
      let data = ''
      req.on('data', (c) => (data += c))
      req.on('end', () => resolve(new URLSearchParams(data)))
    })
  const issueCode = (q: URLSearchParams) => {
    const code = randomBytes(16).toString('hex')
    codes.set(code, { challenge: q.get('code_challenge') ?? '', nonce: q.get('nonce') ?? undefined, redirectUri: q.get('redirect_uri') ?? '' })
    const back = new URL(q.get('redirect_uri')!)
    back.searchParams.set('code', code)
    back.searchParams.set('state', q.get('state') ?? '')
    return back.toString()
  }

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', issuer)
    hits.push(url.pathname + (url.searchParams.get('prompt') ? `?prompt=${url.searchParams.get('prompt')}` : ''))
    if (req.method === 'OPTIONS') {
      cors(res)
      return res.writeHead(204).end()
    }
    if (url.pathname === '/.well-known/openid-configuration') {
      return json(res, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        end_session_endpoint: `${issuer}/logout`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        code_challenge_methods_supported: ['S256'],
      })
    }
    if (url.pathname === '/jwks') return json(res, { keys: [jwk] })
    if (url.pathname === '/authorize') {
      const q = url.searchParams
      if (q.get('client_id') !== clientId) return json(res, { error: 'unauthorized_client' }, 400)
      const session = sessionOf(req)
      if (session && sessions.has(session)) return redirect(res, issueCode(q))
      if (q.get('prompt') === 'none') {
        const back = new URL(q.get('redirect_uri')!)
        back.searchParams.set('error', 'login_required')
        back.searchParams.set('state', q.get('state') ?? '')
        return redirect(res, back.toString())
      }
      const hidden = [...q].map(([k, v]) => `<input type="hidden" name="${k}" value="${v.replace(/"/g, '&quot;')}">`).join('')
      res.writeHead(200, { 'content-type': 'text/html' })
      return res.end(`<!doctype html><title>Test provider</title><h1>Test provider</h1><form method="post" action="/login">${hidden}<button>Continue as ${person.name}</button></form>`)
    }
    if (url.pathname === '/login' && req.method === 'POST') {
      const q = await body(req)
      const session = randomBytes(16).toString('hex')
      sessions.add(session)
      return redirect(res, issueCode(q), { 'set-cookie': `idp_session=${session}; Path=/; HttpOnly; SameSite=Lax` })
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      const q = await body(req)
      const grant = codes.get(q.get('code') ?? '')
      codes.delete(q.get('code') ?? '')
      const verifier = q.get('code_verifier') ?? ''
      const challenge = createHash('sha256').update(verifier).digest('base64url')
      if (!grant || grant.challenge !== challenge || grant.redirectUri !== q.get('redirect_uri')) return json(res, { error: 'invalid_grant' }, 400)
      const idToken = await new SignJWT({ email: person.email, email_verified: true, name: person.name, ...(grant.nonce ? { nonce: grant.nonce } : {}) })
        .setProtectedHeader({ alg: 'RS256', kid: 'e2e-1' })
        .setIssuer(issuer)
        .setAudience(clientId)
        .setSubject(person.sub)
        .setIssuedAt()
        .setExpirationTime('10m')
        .sign(privateKey)
      return json(res, { access_token: randomBytes(16).toString('hex'), token_type: 'Bearer', expires_in: 600, id_token: idToken })
    }
    if (url.pathname === '/logout') {
      const session = sessionOf(req)
      if (session) sessions.delete(session)
      return redirect(res, url.searchParams.get('post_logout_redirect_uri') ?? '/', { 'set-cookie': 'idp_session=; Path=/; Max-Age=0' })
    }
    res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { issuer, clientId, person, hits, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}
