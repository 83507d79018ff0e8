// Well-known rows the seed always writes, whatever the scale, so that tests can name them. Every other
// seeded row comes from the PRNG. Random orders never reference these users or products, so the stock,
// order and delete behaviour described here holds on every fresh copy of the seeded database.

/** Every seeded user, fixtures included, logs in with this password. */
export const SEED_PASSWORD = "seed-password-1";

export const FIXTURE_TIME = "2025-01-01T00:00:00.000Z";

export type FixtureRole = "customer" | "admin";

export const fixtureUsers = {
  /** A customer who owns the fixture orders; cannot be deleted (409). */
  buyer: {
    id: "00000000-0000-4000-8000-000000000001",
    email: "buyer@fixtures.example.com",
    name: "Fixture Buyer",
    role: "customer",
  },
  /** A customer with no orders: can be deleted. */
  noOrders: {
    id: "00000000-0000-4000-8000-000000000002",
    email: "no-orders@fixtures.example.com",
    name: "Fixture Without Orders",
    role: "customer",
  },
  /** The seed's one admin (demo data: its password is SEED_PASSWORD, like every seeded user's). */
  admin: {
    id: "00000000-0000-4000-8000-000000000003",
    email: "admin@fixtures.example.com",
    name: "Fixture Admin",
    role: "admin",
  },
} as const satisfies Record<string, { id: string; email: string; name: string; role: FixtureRole }>;

export const fixtureProducts = {
  /** Stock 10 and no orders: the target of the 50-concurrent-orders check. */
  lowStock: {
    id: "00000000-0000-4000-8000-000000000101",
    name: "Fixture Low Stock Lamp",
    description: "Only ten left.",
    priceCents: 2500,
    stock: 10,
  },
  /** Stock 0: any order is a 409. */
  outOfStock: {
    id: "00000000-0000-4000-8000-000000000102",
    name: "Fixture Sold Out Kettle",
    description: null,
    priceCents: 4999,
    stock: 0,
  },
  /** Referenced by the fixture orders: cannot be deleted (409). */
  ordered: {
    id: "00000000-0000-4000-8000-000000000103",
    name: "Fixture Ordered Chair",
    description: "Referenced by every fixture order.",
    priceCents: 12000,
    stock: 500,
  },
  /** Plenty of stock and no orders: can be deleted, safe to order from. */
  unordered: {
    id: "00000000-0000-4000-8000-000000000104",
    name: "Fixture Spare Desk",
    description: null,
    priceCents: 30000,
    stock: 1000,
  },
} as const;

export type FixtureOrderStatus = "pending" | "shipped" | "delivered" | "cancelled";

/** One order in each status, by fixtureUsers.buyer on fixtureProducts.ordered. */
export const fixtureOrders = {
  pending: { id: "00000000-0000-4000-8000-000000000201", status: "pending", quantity: 2 },
  shipped: { id: "00000000-0000-4000-8000-000000000202", status: "shipped", quantity: 1 },
  delivered: { id: "00000000-0000-4000-8000-000000000203", status: "delivered", quantity: 3 },
  cancelled: { id: "00000000-0000-4000-8000-000000000204", status: "cancelled", quantity: 4 },
} as const satisfies Record<string, { id: string; status: FixtureOrderStatus; quantity: number }>;

/** A syntactically valid UUID that no seeded row has. */
export const MISSING_ID = "00000000-0000-4000-8000-0000000fffff";
