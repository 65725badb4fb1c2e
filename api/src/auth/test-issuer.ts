import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { exportJWK, generateKeyPair, SignJWT, type JWK, type JWTPayload } from 'jose'

/**
 * An OpenID Connect issuer for tests: its own RS256 key pair, a discovery
 * document and a key set served on a localhost port, and a way to sign ID
 * tokens as it would. `discoveryIssuer` lets a test make it lie about its name.
 */
export interface TestIssuer {
  issuer: string
  /** Requests the issuer has answered, by path. */
  hits: string[]
  sign(claims: JWTPayload & { sub?: string }, options?: { audience?: string; issuer?: string; iat?: number; expiresIn?: number; key?: 'own' | 'stranger' }): Promise<string>
  discoveryIssuer?: string
  close(): Promise<void>
}

export async function startTestIssuer(now: () => Date = () => new Date()): Promise<TestIssuer> {
  const own = await generateKeyPair('RS256')
  const stranger = await generateKeyPair('RS256')
  const publicJwk: JWK = { ...(await exportJWK(own.publicKey)), kid: 'test-key-1', alg: 'RS256', use: 'sig' }
  const hits: string[] = []
  const state: TestIssuer = {} as TestIssuer

  const server: Server = createServer((req, res) => {
    hits.push(req.url ?? '')
    const send = (body: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify(body))
    }
    if (req.url === '/.well-known/openid-configuration') {
      return send({ issuer: state.discoveryIssuer ?? state.issuer, jwks_uri: `${state.issuer}/jwks`, id_token_signing_alg_values_supported: ['RS256'] })
    }
    if (req.url === '/jwks') return send({ keys: [publicJwk] })
    res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  Object.assign(state, {
    issuer,
    hits,
    async sign(claims, options = {}) {
      const iat = options.iat ?? Math.floor(now().getTime() / 1000)
      return new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid: 'test-key-1' })
        .setIssuer(options.issuer ?? issuer)
        .setAudience(options.audience ?? 'fl0-dashboard')
        .setIssuedAt(iat)
        .setExpirationTime(iat + (options.expiresIn ?? 300))
        .sign(options.key === 'stranger' ? stranger.privateKey : own.privateKey)
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  } satisfies Omit<TestIssuer, 'discoveryIssuer'>)
  return state
}
