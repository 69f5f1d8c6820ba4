/**
 * Google sign-in: the authorization-code flow through remix-auth-oauth2 (state and PKCE
 * in a short-lived cookie, checked before anything else), and ID-token verification for
 * API clients. Every Google endpoint sits under GOOGLE_OAUTH_BASE_URL when it is set
 * (a local fake provider in tests); otherwise Google's own hosts are used.
 */
import { createRemoteJWKSet, jwtVerify } from "jose";
import { Authenticator } from "remix-auth";
import { OAuth2Strategy } from "remix-auth-oauth2";
import { ApiError } from "~/lib/api.server";
import { getEnv } from "~/lib/env.server";
import { MESSAGES } from "~/schemas/auth";
import type { GoogleIdentity } from "./auth.server";

export function googleEnabled(): boolean {
  const env = getEnv();
  return Boolean(env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET);
}

export function googleEndpoints() {
  const base = getEnv().GOOGLE_OAUTH_BASE_URL;
  return base
    ? {
        authorization: `${base}/o/oauth2/v2/auth`,
        token: `${base}/token`,
        userinfo: `${base}/oauth2/v3/userinfo`,
        certs: `${base}/oauth2/v3/certs`,
        issuers: [base, "https://accounts.google.com", "accounts.google.com"],
      }
    : {
        authorization: "https://accounts.google.com/o/oauth2/v2/auth",
        token: "https://oauth2.googleapis.com/token",
        userinfo: "https://openidconnect.googleapis.com/v1/userinfo",
        certs: "https://www.googleapis.com/oauth2/v3/certs",
        issuers: ["https://accounts.google.com", "accounts.google.com"],
      };
}

async function fetchUserInfo(accessToken: string): Promise<GoogleIdentity> {
  const response = await fetch(googleEndpoints().userinfo, {
    headers: { Authorization: `Bearer ${accessToken}` },
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) throw new Error(`userinfo answered ${response.status}`);
  const profile = (await response.json()) as GoogleIdentity;
  if (!profile.sub) throw new Error("userinfo has no subject");
  return profile;
}

let authenticator: Authenticator<GoogleIdentity> | undefined;

function getAuthenticator(): Authenticator<GoogleIdentity> {
  if (authenticator) return authenticator;
  const env = getEnv();
  const endpoints = googleEndpoints();
  authenticator = new Authenticator<GoogleIdentity>();
  authenticator.use(
    new OAuth2Strategy<GoogleIdentity>(
      {
        clientId: env.GOOGLE_CLIENT_ID!,
        clientSecret: env.GOOGLE_CLIENT_SECRET!,
        authorizationEndpoint: endpoints.authorization,
        tokenEndpoint: endpoints.token,
        redirectURI: `${env.PUBLIC_URL}/auth/google/callback`,
        scopes: ["openid", "email", "profile"],
        cookie: {
          name: "google_oauth",
          path: "/auth/google",
          httpOnly: true,
          sameSite: "Lax",
          ...(env.PUBLIC_URL.startsWith("https://") ? { secure: true as const } : {}),
          maxAge: 600,
        },
      },
      async ({ tokens }) => fetchUserInfo(tokens.accessToken()),
    ),
    "google",
  );
  return authenticator;
}

/**
 * Starts the flow (throws the redirect to Google) or, on the callback, checks state and
 * returns the Google identity.
 */
export function authenticateWithGoogle(request: Request): Promise<GoogleIdentity> {
  return getAuthenticator().authenticate("google", request);
}

let jwks: ReturnType<typeof createRemoteJWKSet> | undefined;

/** Verifies a Google ID token (signature, issuer, audience, expiry) for POST /api/auth/google. */
export async function verifyGoogleIdToken(idToken: string): Promise<GoogleIdentity> {
  if (!googleEnabled()) throw new ApiError(400, `${MESSAGES.googleFailed} Google sign-in is not enabled.`, "GOOGLE_DISABLED");
  const endpoints = googleEndpoints();
  jwks ??= createRemoteJWKSet(new URL(endpoints.certs), { timeoutDuration: 10_000 });
  try {
    const { payload } = await jwtVerify(idToken, jwks, {
      issuer: endpoints.issuers,
      audience: getEnv().GOOGLE_CLIENT_ID!,
    });
    if (typeof payload.sub !== "string") throw new Error("no subject");
    return payload as unknown as GoogleIdentity;
  } catch {
    throw new ApiError(401, MESSAGES.googleFailed, "GOOGLE_FAILED");
  }
}
