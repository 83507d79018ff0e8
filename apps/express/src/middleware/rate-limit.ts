import { problem } from "@api-ref/contract";
import { AUTH_RATE_WINDOW_SECONDS } from "@api-ref/server";
import { type AugmentedRequest, rateLimit } from "express-rate-limit";

/**
 * express-rate-limit for one route (each limiter counts apart, in its own memory store): at most `limit` requests
 * per client address in a fixed window of AUTH_RATE_WINDOW_SECONDS, whatever their outcome. Placed after routing
 * and before `jsonBody`, so that past the limit nothing about the request is read. The 429 goes to `next`, for the
 * error handler to render like every other problem.
 */
export const authRateLimit = (limit: number) =>
  rateLimit({
    windowMs: AUTH_RATE_WINDOW_SECONDS * 1000,
    limit,
    standardHeaders: "draft-8",
    legacyHeaders: false,
    // The key is `req.ip`, the socket's address while `trust proxy` is off (Express's default, kept): no forwarding
    // header is trusted, so the library's warnings that one was sent (printed to the console) say nothing useful.
    validate: { xForwardedForHeader: false, forwardedHeader: false },
    handler: (req, _res, next) => {
      // The limiter's own count for this request (its `requestPropertyName`), set before it calls the handler.
      const resetTime = (req as AugmentedRequest).rateLimit?.resetTime;
      const secondsLeft = resetTime ? Math.ceil((resetTime.getTime() - Date.now()) / 1000) : AUTH_RATE_WINDOW_SECONDS;
      const retryAfter = Math.max(1, secondsLeft);
      next(
        problem(
          "tooManyRequests",
          `Too many requests to ${req.baseUrl}${req.path} from this address; retry in ${retryAfter} s.`,
          {
            headers: { "retry-after": String(retryAfter) },
          },
        ),
      );
    },
  });
