import { type RequestPart, validationProblem } from "@api-ref/contract";
import {
  type ArgumentMetadata,
  Injectable,
  type Paramtype,
  StandardSchemaValidationPipe,
  type StandardSchemaValidationPipeOptions,
} from "@nestjs/common";
import { z } from "zod";

/** Where each kind of parameter sits in the contract's error paths (`params.id`, `query.page`, `body.email`). */
const PARTS: Record<Paramtype, RequestPart> = {
  body: "body",
  query: "query",
  param: "params",
  // The one custom parameter decorator this app validates is `@RequestHeaders()` (`@CurrentUser()` takes no schema).
  custom: "headers",
};

type Issues = Parameters<NonNullable<StandardSchemaValidationPipeOptions["exceptionFactory"]>>[0];

/** The contract's order of checks: when several parts of a request fail, only the first part's errors are reported. */
const ORDER: readonly RequestPart[] = ["params", "headers", "query", "body"];

/** Carries the issues out of the base pipe, which does not know which part of the request it validated. */
class SchemaIssues {
  constructor(readonly issues: Issues) {}
}

/**
 * Nest 12's standard-schema validation on the contract's Zod schemas (`@Body({ schema: CreateUserBody })`),
 * with the contract's 400 instead of Nest's `BadRequestException`: a problem whose `errors[]` name every failing
 * field as `body.email`, `query.page`, `params.id` — the paths Zod reports, through the contract's own
 * `fieldErrors()`, so that every framework reports them alike.
 */
@Injectable()
export class ContractValidationPipe extends StandardSchemaValidationPipe {
  constructor() {
    super({ validateCustomDecorators: true, exceptionFactory: (issues) => new SchemaIssues(issues) });
  }

  override async transform<T = unknown>(value: T, metadata: ArgumentMetadata): Promise<T> {
    try {
      return await super.transform(value, metadata);
    } catch (error) {
      if (!(error instanceof SchemaIssues)) throw error;
      const part = PARTS[metadata.type];
      // Nest starts the pipes of a handler's parameters in one synchronous loop, in the parameters' order, and
      // answers with the first to fail (one Promise.all()). Every failure comes through here at the same depth,
      // so a failing part that waits one microtask per part ahead of it in the contract's order fails after all
      // of those: the earliest part's problem is the answer whatever the parameters' order, without giving up a
      // turn of the event loop (and only failures wait).
      for (let i = 0; i < ORDER.indexOf(part); i++) await Promise.resolve();
      // Every schema here is a Zod schema, so the issues are Zod's own (with `code` and `keys`).
      throw validationProblem(new z.ZodError(error.issues as z.core.$ZodIssue[]), part);
    }
  }

  /**
   * Nest strips `__proto__`, `constructor` and `prototype` keys before validating. JSON bodies carrying
   * `__proto__` or `constructor.prototype` are refused while parsing already (the contract's 400 on `body`), and
   * the other keys must reach the schema: `{"constructor": 1}` echoes, `?constructor=1` is an unknown field.
   */
  protected override stripProtoKeys(): void {}
}
