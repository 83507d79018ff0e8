import * as contract from "@api-ref/contract";
import type { DataAccess } from "@api-ref/data-access";
import type { Plugin } from "@hapi/hapi";
import { jsonBody } from "../edges/json-body.ts";
import { validateWith } from "../edges/validate.ts";

/** Anyone reads products; only admins write them. */
const admins = { access: { scope: "admin" } };

// Paths relative to `/products`, the prefix app.ts registers this plugin under (`routes: { prefix }`).
export const productRoutes: Plugin<{ dataAccess: DataAccess }> = {
  name: "product-routes",
  register(server, { dataAccess: { products } }) {
    server.route<{ Query: contract.ListProductsQuery }>({
      method: "GET",
      path: "/",
      options: {
        auth: false,
        validate: validateWith({ query: contract.ListProductsQuery }),
        handler: (request) => products.list(request.query),
      },
    });
    server.route<{ Payload: contract.CreateProductBody }>({
      method: "POST",
      path: "/",
      options: {
        auth: admins,
        ...jsonBody(contract.CreateProductBody),
        async handler(request, h) {
          const product = await products.create(request.payload);
          return h.response(product).code(201).location(`/products/${product.id}`);
        },
      },
    });
    server.route<{ Params: contract.IdParams }>({
      method: "GET",
      path: "/{id}",
      options: {
        auth: false,
        validate: validateWith({ params: contract.IdParams }),
        handler: (request) => products.get(request.params.id),
      },
    });
    server.route<{ Params: contract.IdParams; Payload: contract.UpdateProductBody }>({
      method: "PATCH",
      path: "/{id}",
      options: {
        auth: admins,
        ...jsonBody(contract.UpdateProductBody),
        validate: validateWith({ params: contract.IdParams }),
        handler: (request) => products.update(request.params.id, request.payload),
      },
    });
    server.route<{ Params: contract.IdParams }>({
      method: "DELETE",
      path: "/{id}",
      options: {
        auth: admins,
        validate: validateWith({ params: contract.IdParams }),
        async handler(request, h) {
          await products.remove(request.params.id);
          return h.response().code(204);
        },
      },
    });
  },
};
