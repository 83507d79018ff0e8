// PostgreSQL, through the data access every Node implementation shares (@api-ref/core): one pool, exposed as the
// `services` decorator, closed when Fastify closes (after the server has stopped taking requests).
import { createDataAccess, type DataAccess, type DataAccessOptions } from "@api-ref/core";
import fp from "fastify-plugin";

declare module "fastify" {
  interface FastifyInstance {
    services: DataAccess;
  }
}

export default fp<DataAccessOptions>(
  async (fastify, options) => {
    const services = createDataAccess(options);
    fastify.decorate("services", services);
    fastify.addHook("onClose", async () => {
      await services.close();
    });
  },
  { name: "services" },
);
