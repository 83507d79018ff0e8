import type { CreateUserBody, ListUsersQuery, UpdateUserBody } from "@api-ref/contract";
import type { DataAccess } from "@api-ref/core";
import { Inject, Injectable } from "@nestjs/common";
import { DATABASE } from "../database/database.module.ts";

/** Users, over the shared data access (the same queries as every other Node implementation). */
@Injectable()
export class UsersService {
  constructor(@Inject(DATABASE) private readonly database: DataAccess) {}

  list(query: ListUsersQuery) {
    return this.database.users.list(query);
  }

  get(id: string) {
    return this.database.users.get(id);
  }

  create(body: CreateUserBody) {
    return this.database.users.create(body);
  }

  update(id: string, body: UpdateUserBody) {
    return this.database.users.update(id, body);
  }

  remove(id: string) {
    return this.database.users.remove(id);
  }
}
