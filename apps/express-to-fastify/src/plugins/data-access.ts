// PostgreSQL, through the data access every Node implementation shares (@api-ref/core): one pool for both worlds.
// Native routes reach it as the `dataAccess` decorator; the mounted Express routers get the same object as the
// argument of their factories (`userRoutes(dataAccess)`). Fastify closes it once, in `onClose`, after the one server
// has stopped taking requests: the Express routers own no server and no pool.
import { createDataAccess, type DataAccess, type DataAccessOptions } from "@api-ref/core";
import fp from "fastify-plugin";

declare module "fastify" {
  interface FastifyInstance {
    dataAccess: DataAccess;
  }
}

export default fp<DataAccessOptions>(
  async (fastify, options) => {
    const dataAccess = createDataAccess(options);
    fastify.decorate("dataAccess", dataAccess);
    fastify.addHook("onClose", async () => {
      await dataAccess.close();
    });
  },
  { name: "data-access" },
);
