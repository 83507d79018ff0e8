// PostgreSQL, through the data access every Node implementation shares (@api-ref/data-access): one pool, exposed as the
// `dataAccess` decorator, closed when Fastify closes (after the server has stopped taking requests). Tests pass
// their own (`dataAccess`: the fake from @api-ref/data-access/testing) instead of a database to connect to.
import { createDataAccess, type DataAccess, type DataAccessOptions } from "@api-ref/data-access";
import fp from "fastify-plugin";

declare module "fastify" {
  interface FastifyInstance {
    dataAccess: DataAccess;
  }
}

export default fp<DataAccessOptions & { dataAccess?: DataAccess }>(
  async (fastify, options) => {
    const dataAccess = options.dataAccess ?? createDataAccess(options);
    fastify.decorate("dataAccess", dataAccess);
    fastify.addHook("onClose", async () => {
      await dataAccess.close();
    });
  },
  { name: "data-access" },
);
