/**
 * A small fake Google OAuth/OpenID provider on 127.0.0.1, implementing what
 * app/services/google-auth.server.ts calls under GOOGLE_OAUTH_BASE_URL:
 *
 *   GET  /o/oauth2/v2/auth      auto-consent: 302 to redirect_uri with a code and the same state
 *   POST /token                 authorization_code grant with PKCE (S256 or plain)
 *   GET  /oauth2/v3/userinfo    Bearer access token → the profile
 *   GET  /oauth2/v3/certs       JWKS (an RSA key made at start)
 *   POST /__control/next-profile  JSON profile used for the next authorization
 *
 * The provider is strict where a real one is: unknown client, wrong secret, reused or
 * foreign code, other redirect_uri or a verifier that does not match the challenge are
 * all refused, so the app's side of the flow is really exercised.
 */
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT, type JWK, type JWTPayload } from "jose";

export type GoogleProfile = {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  given_name?: string;
  family_name?: string;
  picture?: string;
};

export type FakeGoogle = {
  port: number;
  /** http://127.0.0.1:<port>, ready for GOOGLE_OAUTH_BASE_URL (also the ID tokens' issuer). */
  url: string;
  clientId: string;
  /** The profile the next authorization (page flow) signs in as; consumed by it. */
  setNextProfile: (profile: GoogleProfile) => void;
  /** An RS256 ID token from this provider: iss = url, aud = clientId, exp in an hour, unless the claims say otherwise. */
  signIdToken: (claims: Partial<GoogleProfile> & JWTPayload, options?: { foreignKey?: boolean }) => Promise<string>;
  /** Every request the provider received (method, path, and for /token the grant checks that passed). */
  calls: Array<{ method: string; path: string; status: number }>;
  close: () => Promise<void>;
};

type PendingCode = {
  clientId: string;
  redirectUri: string;
  codeChallenge: string | null;
  codeChallengeMethod: string;
  scope: string;
  nonce: string | null;
  profile: GoogleProfile;
  expiresAt: number;
  used: boolean;
};

let profileCounter = 0;

export function randomProfile(overrides: Partial<GoogleProfile> = {}): GoogleProfile {
  profileCounter += 1;
  const tag = `${Date.now().toString(36)}${profileCounter}${crypto.randomBytes(2).toString("hex")}`;
  return {
    sub: String(100_000_000_000 + crypto.randomInt(0, 999_999_999)) + profileCounter,
    email: `g-${tag}@gmail.example`,
    email_verified: true,
    name: `Google User ${tag}`,
    given_name: "Google",
    family_name: `User${tag}`,
    picture: `https://lh3.googleusercontent.example/a/${tag}`,
    ...overrides,
  };
}

const base64url = (buffer: Buffer) => buffer.toString("base64url");

async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export async function startFakeGoogle(options: { clientId: string; clientSecret: string; port?: number }): Promise<FakeGoogle> {
  const { clientId, clientSecret } = options;
  const signing = await generateKeyPair("RS256", { extractable: true });
  const foreign = await generateKeyPair("RS256", { extractable: true });
  const kid = crypto.randomBytes(8).toString("hex");
  const publicJwk: JWK = { ...(await exportJWK(signing.publicKey)), kid, alg: "RS256", use: "sig" };

  const codes = new Map<string, PendingCode>();
  const accessTokens = new Map<string, { profile: GoogleProfile; expiresAt: number }>();
  const calls: FakeGoogle["calls"] = [];
  let nextProfile: GoogleProfile | null = null;
  let baseUrl = "";

  async function signIdToken(claims: Partial<GoogleProfile> & JWTPayload, signOptions: { foreignKey?: boolean } = {}) {
    const now = Math.floor(Date.now() / 1000);
    const { iss, aud, exp, iat, ...rest } = claims;
    return new SignJWT({ ...rest })
      .setProtectedHeader({ alg: "RS256", kid, typ: "JWT" })
      .setIssuer(iss ?? baseUrl)
      .setAudience(aud ?? clientId)
      .setIssuedAt(iat ?? now)
      .setExpirationTime(exp ?? now + 3600)
      .sign(signOptions.foreignKey ? foreign.privateKey : signing.privateKey);
  }

  const send = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    const text = typeof body === "string" ? body : JSON.stringify(body);
    res.writeHead(status, {
      "Content-Type": typeof body === "string" ? "text/plain; charset=utf-8" : "application/json",
      "Cache-Control": "no-store",
      ...headers,
    });
    res.end(text);
  };

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<number> {
    const url = new URL(req.url ?? "/", baseUrl);
    const method = req.method ?? "GET";

    if (method === "GET" && url.pathname === "/o/oauth2/v2/auth") {
      const q = url.searchParams;
      if (q.get("client_id") !== clientId) {
        send(res, 400, "Error 401: invalid_client. The OAuth client was not found.");
        return 400;
      }
      const redirectUri = q.get("redirect_uri");
      const state = q.get("state");
      if (!redirectUri || !/^https?:\/\//.test(redirectUri)) {
        send(res, 400, "Error 400: redirect_uri_mismatch");
        return 400;
      }
      if (q.get("response_type") !== "code") {
        send(res, 400, "Error 400: unsupported_response_type");
        return 400;
      }
      const profile = nextProfile ?? randomProfile();
      nextProfile = null;
      const code = `4/${base64url(crypto.randomBytes(24))}`;
      codes.set(code, {
        clientId,
        redirectUri,
        codeChallenge: q.get("code_challenge"),
        codeChallengeMethod: q.get("code_challenge_method") ?? "plain",
        scope: q.get("scope") ?? "",
        nonce: q.get("nonce"),
        profile,
        expiresAt: Date.now() + 5 * 60_000,
        used: false,
      });
      const target = new URL(redirectUri);
      target.searchParams.set("code", code);
      if (state !== null) target.searchParams.set("state", state);
      target.searchParams.set("scope", "email profile openid");
      res.writeHead(302, { Location: target.toString(), "Cache-Control": "no-store" });
      res.end();
      return 302;
    }

    if (method === "POST" && url.pathname === "/token") {
      const raw = await readBody(req);
      const type = req.headers["content-type"] ?? "";
      const body = type.includes("application/json")
        ? new URLSearchParams(Object.entries(JSON.parse(raw || "{}") as Record<string, string>))
        : new URLSearchParams(raw);
      // client authentication: HTTP Basic or client_id/client_secret in the body
      let givenId = body.get("client_id");
      let givenSecret = body.get("client_secret");
      const authorization = req.headers.authorization ?? "";
      if (authorization.startsWith("Basic ")) {
        const decoded = Buffer.from(authorization.slice(6), "base64").toString("utf8");
        const colon = decoded.indexOf(":");
        givenId = decodeURIComponent(decoded.slice(0, colon));
        givenSecret = decodeURIComponent(decoded.slice(colon + 1));
      }
      if (givenId !== clientId || givenSecret !== clientSecret) {
        send(res, 401, { error: "invalid_client", error_description: "The OAuth client was not found." });
        return 401;
      }
      if (body.get("grant_type") !== "authorization_code") {
        send(res, 400, { error: "unsupported_grant_type" });
        return 400;
      }
      const code = body.get("code") ?? "";
      const pending = codes.get(code);
      if (!pending || pending.used || pending.expiresAt < Date.now() || pending.clientId !== givenId) {
        send(res, 400, { error: "invalid_grant", error_description: "Malformed auth code." });
        return 400;
      }
      pending.used = true;
      if (body.get("redirect_uri") !== pending.redirectUri) {
        send(res, 400, { error: "redirect_uri_mismatch", error_description: "Bad Request" });
        return 400;
      }
      if (pending.codeChallenge) {
        const verifier = body.get("code_verifier") ?? "";
        const computed =
          pending.codeChallengeMethod === "S256" ? base64url(crypto.createHash("sha256").update(verifier).digest()) : verifier;
        if (!verifier || computed !== pending.codeChallenge) {
          send(res, 400, { error: "invalid_grant", error_description: "Invalid code verifier." });
          return 400;
        }
      }
      const accessToken = `ya29.${base64url(crypto.randomBytes(32))}`;
      accessTokens.set(accessToken, { profile: pending.profile, expiresAt: Date.now() + 3600_000 });
      const idToken = await signIdToken({
        ...pending.profile,
        azp: clientId,
        at_hash: base64url(crypto.createHash("sha256").update(accessToken).digest().subarray(0, 16)),
        ...(pending.nonce ? { nonce: pending.nonce } : {}),
      });
      send(res, 200, {
        access_token: accessToken,
        token_type: "Bearer",
        expires_in: 3599,
        scope: pending.scope || "openid email profile",
        id_token: idToken,
      });
      return 200;
    }

    if (method === "GET" && url.pathname === "/oauth2/v3/userinfo") {
      const match = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? "");
      const entry = match ? accessTokens.get(match[1].trim()) : undefined;
      if (!entry || entry.expiresAt < Date.now()) {
        send(
          res,
          401,
          { error: "invalid_request", error_description: "Invalid Credentials" },
          { "WWW-Authenticate": 'Bearer error="invalid_token"' },
        );
        return 401;
      }
      send(res, 200, entry.profile);
      return 200;
    }

    if (method === "GET" && url.pathname === "/oauth2/v3/certs") {
      send(res, 200, { keys: [publicJwk] }, { "Cache-Control": "public, max-age=60" });
      return 200;
    }

    if (method === "POST" && url.pathname === "/__control/next-profile") {
      const profile = JSON.parse((await readBody(req)) || "{}") as Partial<GoogleProfile>;
      nextProfile = randomProfile(profile);
      send(res, 200, { ok: true, profile: nextProfile });
      return 200;
    }

    send(res, 404, { error: "not_found" });
    return 404;
  }

  const server = http.createServer((req, res) => {
    handle(req, res)
      .then((status) => calls.push({ method: req.method ?? "GET", path: (req.url ?? "/").split("?")[0], status }))
      .catch((error: Error) => {
        calls.push({ method: req.method ?? "GET", path: (req.url ?? "/").split("?")[0], status: 500 });
        if (!res.headersSent) send(res, 500, { error: "server_error", error_description: error.message });
        else res.destroy();
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}`;

  return {
    port,
    url: baseUrl,
    clientId,
    setNextProfile: (profile) => {
      nextProfile = profile;
    },
    signIdToken,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
