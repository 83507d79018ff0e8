import type { LoginBody, RegisterBody } from "@api-ref/contract";
import type { DataAccess } from "@api-ref/core";
import { Inject, Injectable } from "@nestjs/common";
import { DATABASE } from "../database/database.module.ts";

/** Registration, login and the token's user, over the shared data access (scrypt hashes, HS256 tokens). */
@Injectable()
export class AuthService {
  constructor(@Inject(DATABASE) private readonly database: DataAccess) {}

  register(body: RegisterBody) {
    return this.database.auth.register(body);
  }

  login(body: LoginBody) {
    return this.database.auth.login(body);
  }

  me(authorization: string | undefined) {
    return this.database.auth.me(authorization);
  }
}
