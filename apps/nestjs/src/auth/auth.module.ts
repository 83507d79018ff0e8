import { Module } from "@nestjs/common";
import { AuthController } from "./auth.controller.ts";

/** The auth routes; their repository comes from the global DataAccessModule. */
@Module({ controllers: [AuthController] })
export class AuthModule {}
