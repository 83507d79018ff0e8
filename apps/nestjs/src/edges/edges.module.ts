import { Module } from "@nestjs/common";
import { APP_FILTER, APP_PIPE } from "@nestjs/core";
import { ContractValidationPipe } from "./contract-validation.pipe.ts";
import { ProblemsFilter } from "./problems.filter.ts";

/**
 * The contract's edges Nest binds globally through its DI tokens: the one exception filter that renders every error
 * as a problem document, and the validation pipe that reports failures as the contract's 400. The edges each HTTP
 * platform needs (strict paths, unread bodies, security headers) are set up by `platforms/`.
 */
@Module({
  providers: [
    { provide: APP_FILTER, useClass: ProblemsFilter },
    { provide: APP_PIPE, useClass: ContractValidationPipe },
  ],
})
export class EdgesModule {}
