// RFC 9457 problem details: the one error format of the contract. Types and titles are fixed per kind;
// `detail` and `errors[].message` are free text and never carry stack traces, SQL or internal names.
import { z } from "zod";
import { PROBLEMS, type ProblemKind } from "./problem-kinds.ts";

export { PROBLEMS, type ProblemKind };

/** `retry-after` of every 503: a data-access failure that is not the client's fault is worth retrying shortly. */
export const RETRY_AFTER_SECONDS = 1;
export const PROBLEM_CONTENT_TYPE = "application/problem+json";

export const FieldError = z.strictObject({ path: z.string(), message: z.string() });
export type FieldError = z.output<typeof FieldError>;

export const Problem = z.strictObject({
  type: z.string(),
  title: z.string(),
  status: z.int(),
  detail: z.string(),
  errors: z.array(FieldError).optional(),
});
export type Problem = z.output<typeof Problem>;

/** An error that is meant for the client: every framework's error handler renders it as it is. */
export class ProblemError extends Error {
  readonly kind: ProblemKind;
  readonly status: number;
  readonly errors: FieldError[] | undefined;
  /** Extra response headers (e.g. `allow` on a 405). */
  readonly headers: Record<string, string>;

  constructor(
    kind: ProblemKind,
    detail: string,
    options: { errors?: FieldError[]; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(detail, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ProblemError";
    this.kind = kind;
    this.status = PROBLEMS[kind].status;
    this.errors = options.errors;
    this.headers = options.headers ?? {};
    if (kind === "unavailable" && !("retry-after" in this.headers))
      this.headers = { ...this.headers, "retry-after": String(RETRY_AFTER_SECONDS) };
  }

  toJSON(): Problem {
    const { type, title, status } = PROBLEMS[this.kind];
    return this.errors
      ? { type, title, status, detail: this.message, errors: this.errors }
      : { type, title, status, detail: this.message };
  }
}

export const problem = (kind: ProblemKind, detail: string, options?: ConstructorParameters<typeof ProblemError>[2]) =>
  new ProblemError(kind, detail, options);

export type RequestPart = "body" | "query" | "params" | "headers";

/** Field errors for a failed parse, with paths like `body.email`, one per unknown key. */
export function fieldErrors(error: z.ZodError, part: RequestPart): FieldError[] {
  const errors: FieldError[] = [];
  for (const issue of error.issues) {
    const base = [part, ...issue.path.map(String)].join(".");
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) errors.push({ path: `${base}.${key}`, message: "is not a known field" });
    } else {
      errors.push({ path: base, message: issue.message });
    }
  }
  return errors;
}

/** A 400 validation problem for a failed parse of one part of the request. */
export const validationProblem = (error: z.ZodError, part: RequestPart) =>
  new ProblemError("validation", `The request ${part} is not valid.`, { errors: fieldErrors(error, part) });

/** Parses one part of a request with a contract schema, or throws the contract's 400. */
export function parseRequestPart<T extends z.ZodType>(schema: T, value: unknown, part: RequestPart): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw validationProblem(result.error, part);
  return result.data;
}
