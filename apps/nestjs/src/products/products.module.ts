import { Module } from "@nestjs/common";
import { ProductsController } from "./products.controller.ts";

/** The products routes; their repository comes from the global DataAccessModule. */
@Module({ controllers: [ProductsController] })
export class ProductsModule {}
