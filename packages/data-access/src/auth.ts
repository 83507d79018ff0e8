import { createHmac } from "node:crypto";
import { Id, type LoginBody, ProblemError, type RegisterBody, TOKEN_TTL_SECONDS } from "@api-ref/contract";
import { hashPassword, needsRehash, type PrismaClient, verifyPassword } from "@api-ref/db";
import { errors as joseErrors, jwtVerify } from "jose";
import { toUser } from "./dto.ts";
import { isUniqueViolation, translate } from "./errors.ts";
import { type Principal, unauthorized } from "./principal.ts";
import { emailTaken } from "./users.ts";

const BEARER = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/i;

/**
 * An HS256 JWT (`{alg, typ}` header, `{sub, iat, exp}` claims), signed with node:crypto's HMAC. jose signs through
 * WebCrypto, which Node runs on the libuv threadpool, the four threads scrypt runs on: under concurrent logins each
 * token queued behind every password hash waiting there. An HMAC of a hundred bytes takes microseconds on the
 * calling thread. Tokens are still verified with jose.
 */
export function signToken(sub: string, key: Uint8Array, nowS = Math.floor(Date.now() / 1000)): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const unsigned = `${part({ alg: "HS256", typ: "JWT" })}.${part({ sub, iat: nowS, exp: nowS + TOKEN_TTL_SECONDS })}`;
  return `${unsigned}.${createHmac("sha256", key).update(unsigned).digest("base64url")}`;
}

/** The token of an `authorization` header, or a 401: no header or another scheme is a missing token. */
function bearerToken(authorization: string | undefined): string {
  const value = authorization?.trim();
  if (!value || !/^bearer(\s|$)/i.test(value)) {
    throw unauthorized("An `authorization: Bearer <token>` header is required.", "missing");
  }
  const match = BEARER.exec(value);
  if (!match?.[1]) throw unauthorized("The bearer token is not a JWT.");
  return match[1];
}

export function authRepository(prisma: PrismaClient, jwtSecret: string) {
  const key = new TextEncoder().encode(jwtSecret);

  const issueToken = (userId: string) => signToken(userId, key);

  /** The user id a bearer token names; 401 for anything but a valid, unexpired HS256 token. */
  async function verifyBearer(authorization: string | undefined): Promise<string> {
    const token = bearerToken(authorization);
    try {
      const { payload } = await jwtVerify(token, key, { algorithms: ["HS256"], requiredClaims: ["sub", "exp"] });
      if (!Id.safeParse(payload.sub).success) throw unauthorized("The token names no user.");
      return payload.sub as string;
    } catch (error) {
      if (error instanceof ProblemError) throw error;
      if (error instanceof joseErrors.JWTExpired) throw unauthorized("The token has expired.");
      throw unauthorized("The token is not valid.");
    }
  }

  return {
    /**
     * Who sent the request: the token verified, then its user read (by primary key) for their current role. A token
     * whose user was deleted is a 401 on every route, as an expired one is.
     */
    async authenticate(authorization: string | undefined): Promise<Principal> {
      const id = await verifyBearer(authorization);
      const user = await prisma.user.findUnique({ where: { id }, select: { id: true, role: true } }).catch(translate);
      if (!user) throw unauthorized("The token's user no longer exists.");
      return user;
    },

    async register({ email, name, password }: RegisterBody) {
      const passwordHash = await hashPassword(password);
      try {
        const user = await prisma.user.create({ data: { email, name, passwordHash }, omit: { passwordHash: true } });
        return { user: toUser(user), token: issueToken(user.id) };
      } catch (error) {
        if (isUniqueViolation(error)) throw emailTaken();
        translate(error);
      }
    },

    /**
     * Same answer, and the same scrypt cost, whether the e-mail is unknown or the password wrong. A hash stored with
     * older scrypt parameters is replaced by one with today's, now that the password is known to be right.
     */
    async login({ email, password }: LoginBody) {
      const user = await prisma.user
        .findUnique({ where: { email: email.toLowerCase() }, select: { id: true, passwordHash: true } })
        .catch(translate);
      const valid = await verifyPassword(password, user?.passwordHash);
      if (!user?.passwordHash || !valid) throw unauthorized("The e-mail address or the password is wrong.", "missing");
      if (needsRehash(user.passwordHash)) {
        const passwordHash = await hashPassword(password);
        await prisma.user
          .update({ where: { id: user.id }, data: { passwordHash }, select: { id: true } })
          .catch(translate);
      }
      return { token: issueToken(user.id), tokenType: "Bearer", expiresIn: TOKEN_TTL_SECONDS } as const;
    },

    /** The caller's own user, whole. */
    async me(principal: Principal) {
      const user = await prisma.user
        .findUnique({ where: { id: principal.id }, omit: { passwordHash: true } })
        .catch(translate);
      if (!user) throw unauthorized("The token's user no longer exists.");
      return toUser(user);
    },

    verifyBearer,
  };
}
export type AuthRepository = ReturnType<typeof authRepository>;
