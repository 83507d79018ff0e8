import { createHash } from "node:crypto";
import { cp, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getDMMF } from "@prisma/internals";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APP_ROLE, ensureAppRole } from "../src/app-role.ts";
import { createPrismaClient } from "../src/client.ts";
import { applyMigrations, MIGRATIONS_DIR, readMigrations } from "../src/migrate.ts";
import type { PostgresServer } from "../src/provision.ts";
import { sql } from "../src/sql.ts";
import { testServer, uniqueName } from "./helpers.ts";

let server: PostgresServer;
let url: string;
let firstRun: Awaited<ReturnType<typeof applyMigrations>>;

beforeAll(async () => {
  server = await testServer();
  url = await server.createDatabase(uniqueName("migrate"));
  firstRun = await applyMigrations(url);
});
afterAll(() => server?.stop());

const query = <T extends pg.QueryResultRow>(text: string, params: unknown[] = []) => sql<T>(url, text, params);

describe("migrations", () => {
  it("apply every committed migration to an empty database and record them as Prisma does", async () => {
    const migrations = await readMigrations();
    expect(migrations.length).toBeGreaterThan(0);
    expect(firstRun.applied).toEqual(migrations.map((m) => m.name));
    const recorded = await query<{
      migration_name: string;
      checksum: string;
      finished_at: Date | null;
      applied_steps_count: number;
    }>(
      `SELECT migration_name, checksum, finished_at, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name`,
    );
    expect(recorded).toEqual(
      migrations.map((m) => ({
        migration_name: m.name,
        checksum: m.checksum,
        finished_at: expect.any(Date),
        applied_steps_count: 1,
      })),
    );
  });

  it("apply nothing the second time", async () => {
    const again = await applyMigrations(url);
    expect(again.applied).toEqual([]);
    expect(again.alreadyApplied).toEqual(firstRun.applied);
  });

  it("leave a schema that matches schema.prisma: every model, column, nullability, enum and index", async () => {
    const datamodel = await readFile(new URL("../prisma/schema.prisma", import.meta.url), "utf8");
    const dmmf = await getDMMF({ datamodel });
    const columns = await query<{ table_name: string; column_name: string; is_nullable: string; udt_name: string }>(
      `SELECT table_name, column_name, is_nullable, udt_name FROM information_schema.columns WHERE table_schema = 'public'`,
    );
    const indexes = await query<{ indexname: string }>(`SELECT indexname FROM pg_indexes WHERE schemaname = 'public'`);
    const indexNames = new Set(indexes.map((i) => i.indexname));
    const prismaTypeToUdt: Record<string, string[]> = {
      String: ["uuid", "varchar", "bpchar", "text"],
      Int: ["int4"],
      BigInt: ["int8"],
      DateTime: ["timestamptz"],
      Json: ["jsonb"],
    };
    for (const model of dmmf.datamodel.models) {
      const table = model.dbName ?? model.name;
      const tableColumns = columns.filter((c) => c.table_name === table);
      const scalarFields = model.fields.filter((f) => f.kind !== "object");
      expect(tableColumns.map((c) => c.column_name).sort(), `columns of ${table}`).toEqual(
        scalarFields.map((f) => f.dbName ?? f.name).sort(),
      );
      for (const field of scalarFields) {
        const column = tableColumns.find((c) => c.column_name === (field.dbName ?? field.name));
        expect(column?.is_nullable, `${table}.${field.name} nullability`).toBe(field.isRequired ? "NO" : "YES");
        if (field.kind === "enum") {
          const enumDef = dmmf.datamodel.enums.find((e) => e.name === field.type);
          expect(column?.udt_name).toBe(enumDef?.dbName ?? field.type);
        } else {
          expect(prismaTypeToUdt[field.type], `${table}.${field.name} type`).toContain(column?.udt_name);
        }
      }
    }
    for (const index of dmmf.datamodel.indexes) {
      const model = dmmf.datamodel.models.find((m) => m.name === index.model);
      const table = model?.dbName ?? index.model;
      const name =
        index.dbName ??
        (index.type === "id"
          ? `${table}_pkey`
          : `${table}_${index.fields.map((f) => model?.fields.find((mf) => mf.name === f.name)?.dbName ?? f.name).join("_")}_key`);
      expect(indexNames, `index ${name}`).toContain(name);
    }
    for (const enumDef of dmmf.datamodel.enums) {
      const values = await query<{ enumlabel: string }>(
        `SELECT e.enumlabel FROM pg_enum e JOIN pg_type t ON t.oid = e.enumtypid WHERE t.typname = $1 ORDER BY e.enumsortorder`,
        [enumDef.dbName ?? enumDef.name],
      );
      expect(values.map((v) => v.enumlabel)).toEqual(enumDef.values.map((v) => v.dbName ?? v.name));
    }
  });

  it("let the generated client create and read every model, relations included", async () => {
    const prisma = createPrismaClient({ connectionString: url, poolSize: 2 });
    try {
      const user = await prisma.user.create({ data: { email: "reader@example.com", name: "Reader" } });
      expect(user.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(user.role).toBe("customer");
      const product = await prisma.product.create({ data: { name: "Pen", priceCents: 199, stock: 3 } });
      expect(product.description).toBeNull();
      const order = await prisma.order.create({
        data: { userId: user.id, productId: product.id, quantity: 2, unitPriceCents: 199, totalCents: 398 },
        include: { user: true, product: true },
      });
      expect(order.status).toBe("pending");
      expect(order.user.email).toBe("reader@example.com");
      expect(order.product.name).toBe("Pen");
      await prisma.idempotencyKey.create({
        data: {
          userId: user.id,
          key: "k-1",
          requestHash: "a".repeat(64),
          responseStatus: 201,
          responseBody: { id: order.id },
          completedAt: new Date(),
        },
      });
      const key = await prisma.idempotencyKey.findUniqueOrThrow({
        where: { userId_key: { userId: user.id, key: "k-1" } },
      });
      expect(key.responseBody).toEqual({ id: order.id });
      expect(
        await prisma.user.findUnique({ where: { email: "reader@example.com" }, include: { orders: true } }),
      ).toMatchObject({
        orders: [{ id: order.id, totalCents: 398n }],
      });
    } finally {
      await prisma.$disconnect();
    }
  });

  it("make PostgreSQL itself reject broken invariants", async () => {
    const prisma = createPrismaClient({ connectionString: url, poolSize: 1 });
    try {
      const product = await prisma.product.create({ data: { name: "Cup", priceCents: 500, stock: 1 } });
      await expect(prisma.product.update({ where: { id: product.id }, data: { stock: -1 } })).rejects.toThrow(
        /products_stock_check/,
      );
      await expect(
        prisma.product.update({ where: { id: product.id }, data: { stock: { decrement: 2 } } }),
      ).rejects.toThrow(/products_stock_check/);
      expect((await prisma.product.findUniqueOrThrow({ where: { id: product.id } })).stock).toBe(1);
      await expect(prisma.product.create({ data: { name: "Gold", priceCents: -1, stock: 1 } })).rejects.toThrow(
        /products_price_cents_check/,
      );
      await expect(prisma.user.create({ data: { email: "Upper@Example.com", name: "U" } })).rejects.toThrow(
        /users_email_lower_check/,
      );
      const user = await prisma.user.create({ data: { email: "inv@example.com", name: "Inv" } });
      await expect(
        prisma.order.create({
          data: { userId: user.id, productId: product.id, quantity: 2, unitPriceCents: 500, totalCents: 999 },
        }),
      ).rejects.toThrow(/orders_total_cents_check/);
      await expect(
        prisma.order.create({
          data: { userId: user.id, productId: product.id, quantity: 0, unitPriceCents: 500, totalCents: 0 },
        }),
      ).rejects.toThrow(/orders_quantity_check/);
      await prisma.order.create({
        data: { userId: user.id, productId: product.id, quantity: 1, unitPriceCents: 500, totalCents: 500 },
      });
      await expect(prisma.user.delete({ where: { id: user.id } })).rejects.toThrow();
      await expect(prisma.user.create({ data: { email: "inv@example.com", name: "Twin" } })).rejects.toThrow(/email/);
    } finally {
      await prisma.$disconnect();
    }
  });

  it("keep the idempotency keys of recorded orders through the authorization migration, rehashed as the apps hash", async () => {
    const dir = await mkdtemp(join(tmpdir(), "migrations-"));
    const databaseUrl = await server.createDatabase(uniqueName("migrate_keys"));
    try {
      // By name, and only these two: a later migration (a new column, say) must not change what this test applies.
      const names = (await readMigrations()).map((m) => m.name);
      const [first, authorization] = [names[0] as string, names.find((n) => n.endsWith("_authorization")) as string];
      const copy = (name: string) => cp(join(MIGRATIONS_DIR, name), join(dir, name), { recursive: true });
      await copy(first);
      await applyMigrations(databaseUrl, dir);
      const userId = "00000000-0000-4000-8000-000000000001";
      const productId = "00000000-0000-4000-8000-0000000000AB";
      await sql(databaseUrl, "INSERT INTO users (id, email, name) VALUES ($1, 'keys@example.com', 'Keys')", [userId]);
      await sql(
        databaseUrl,
        `INSERT INTO idempotency_keys (key, request_hash, response_status, response_body, completed_at) VALUES
         ('done', $1, 201, $2, now()), ('refused', $1, 409, '{}', now()), ('running', $1, NULL, NULL, NULL)`,
        ["0".repeat(64), JSON.stringify({ id: "x", userId, productId, quantity: 3 })],
      );
      await copy(authorization);
      expect((await applyMigrations(databaseUrl, dir)).applied).toEqual([authorization]);
      const kept = await sql<{ key: string; user_id: string; request_hash: string }>(
        databaseUrl,
        "SELECT key, user_id, request_hash FROM idempotency_keys",
      );
      const appHash = createHash("sha256")
        .update(JSON.stringify({ productId: productId.toLowerCase(), quantity: 3 }))
        .digest("hex");
      expect(kept).toEqual([{ key: "done", user_id: userId, request_hash: appHash }]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("the role the APIs connect as", () => {
  it("reads and writes the API's rows and can change no schema", async () => {
    await ensureAppRole(url, "app role password");
    await ensureAppRole(url, "app role password, changed"); // again: idempotent
    const asApp = new URL(url);
    asApp.username = APP_ROLE;
    asApp.password = "app role password, changed";
    const app = asApp.toString();
    await sql(app, "INSERT INTO products (name, price_cents, stock) VALUES ('Role check', 1, 1)");
    expect(await sql(app, "SELECT name FROM products WHERE name = 'Role check'")).toEqual([{ name: "Role check" }]);
    await sql(app, "DELETE FROM products WHERE name = 'Role check'");
    for (const statement of [
      "CREATE TABLE intruder (id int)",
      "DROP TABLE orders",
      "ALTER TABLE users ADD COLUMN intruder int",
      "SELECT * FROM _prisma_migrations",
      "TRUNCATE idempotency_keys",
    ]) {
      await expect(sql(app, statement), statement).rejects.toThrow(/permission denied|must be owner/);
    }
  });
});
