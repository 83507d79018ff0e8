import { Module } from "@nestjs/common";
import { UsersController } from "./users.controller.ts";

/** The users routes; their repository comes from the global DataAccessModule. */
@Module({ controllers: [UsersController] })
export class UsersModule {}
