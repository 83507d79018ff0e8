// PostgreSQL, through the data access every Node implementation shares (@api-ref/core): one pool, exposed as the
// `services` decorator, closed when Fastify closes (after the server has stopped taking requests).
import { createServices, type Services, type ServicesOptions } from "@api-ref/core";
import fp from "fastify-plugin";

declare module "fastify" {
  interface FastifyInstance {
    services: Services;
  }
}

export default fp<ServicesOptions>(
  async (fastify, options) => {
    const services = createServices(options);
    fastify.decorate("services", services);
    fastify.addHook("onClose", async () => {
      await services.close();
    });
  },
  { name: "services" },
);
