import type { IncomingMessage } from "node:http";
import { problem } from "@api-ref/contract";
import { type ExecutionContext, Injectable } from "@nestjs/common";
import { normalizeIp, ThrottlerGuard, type ThrottlerLimitDetail } from "@nestjs/throttler";
import { rawRequestOf } from "../common/http.ts";

/**
 * `@nestjs/throttler`'s guard, as its README extends it, in two places: the client is the connection's remote
 * address on both platforms, whatever `trust proxy` says (no forwarding header is trusted), and past the limit the
 * answer is the contract's 429 with `retry-after`, a `ProblemError` the problem filter renders like every other.
 * Bound per route (`@UseGuards()`), so it runs after the global guards and before any interceptor and pipe: after
 * routing, and before the body is read or validated.
 */
@Injectable()
export class AuthThrottlerGuard extends ThrottlerGuard {
  protected override async getTracker(request: Record<string, unknown>): Promise<string> {
    const { remoteAddress } = rawRequestOf(request as unknown as IncomingMessage).socket;
    // The library's own normalisation: an IPv6 client is its /64, as it is by default.
    return normalizeIp(remoteAddress ?? "", this.ipv6SubnetPrefix);
  }

  protected override async throwThrottlingException(
    _context: ExecutionContext,
    { timeToBlockExpire }: ThrottlerLimitDetail,
  ): Promise<void> {
    // Seconds until the oldest request counted leaves the window (rounded up; at least 1).
    const retryAfter = Math.max(1, timeToBlockExpire);
    throw problem("tooManyRequests", `Too many requests from this address; retry in ${retryAfter} s.`, {
      headers: { "retry-after": String(retryAfter) },
    });
  }
}
