import { Module } from "@nestjs/common";
import { OrdersController } from "./orders.controller.ts";

/** The orders routes; their repository comes from the global DataAccessModule. */
@Module({ controllers: [OrdersController] })
export class OrdersModule {}
