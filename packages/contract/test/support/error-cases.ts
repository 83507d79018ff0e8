// The errors contract file's case tables: bodies and queries that must be refused, each with the exact set of
// failing paths the validation problem must list.
import { MISSING_ID } from "@api-ref/db/fixtures";
import { encodeCursor } from "../../src/index.ts";
import { uniqueEmail } from "./http-asserts.ts";

export type Body = Record<string, unknown>;
export type Case = [label: string, body: Body, paths: string[]];

export const MiB = 1024 * 1024;
/** A JSON object of exactly `bytes` bytes: `{"filler":"xxx…"}`. */
export const jsonOfSize = (bytes: number) => `{"filler":"${"x".repeat(bytes - '{"filler":""}'.length)}"}`;
export const NUL = "a\u0000b";
export const email255 = `${"a".repeat(243)}@example.com`;

// ---- body tables: [what is wrong, the body, the exact failing paths] -----------------------------------------

export const newUser = (fields: Body): Body => ({ email: uniqueEmail("bad"), name: "Valid Name", ...fields });
export const userBodies: Case[] = [
  ["no e-mail", { name: "Valid Name" }, ["body.email"]],
  ["an e-mail that is not an address", newUser({ email: "not-an-email" }), ["body.email"]],
  ["an e-mail without a top-level domain", newUser({ email: "someone@localhost" }), ["body.email"]],
  ["an e-mail of 255 characters", newUser({ email: email255 }), ["body.email"]],
  ["an e-mail that is a number", newUser({ email: 42 }), ["body.email"]],
  ["an e-mail that is null", newUser({ email: null }), ["body.email"]],
  ["an e-mail with a NUL character", newUser({ email: `a${NUL}@example.com` }), ["body.email"]],
  ["no name", { email: uniqueEmail("bad") }, ["body.name"]],
  ["an empty name", newUser({ name: "" }), ["body.name"]],
  ["a name of spaces only", newUser({ name: "    " }), ["body.name"]],
  ["a name of 101 characters", newUser({ name: "n".repeat(101) }), ["body.name"]],
  ["a name that is a number", newUser({ name: 7 }), ["body.name"]],
  ["a name that is an array", newUser({ name: ["Ada"] }), ["body.name"]],
  ["a name with a NUL character", newUser({ name: NUL }), ["body.name"]],
  // A role is made by a command or the seed, never through the API.
  ["a role (no writable field)", newUser({ role: "admin" }), ["body.role"]],
  ["a customer role, all the same", newUser({ role: "customer" }), ["body.role"]],
  ["a server-computed id", newUser({ id: MISSING_ID }), ["body.id"]],
  [
    "server-computed timestamps",
    newUser({ createdAt: "2025-01-01T00:00:00.000Z", updatedAt: "x" }),
    ["body.createdAt", "body.updatedAt"],
  ],
  ["a password hash", newUser({ passwordHash: "scrypt$1$1$1$x$y" }), ["body.passwordHash"]],
  ["an empty object", {}, ["body.email", "body.name"]],
  [
    "several failing fields at once",
    { email: "nope", name: " ", isAdmin: true },
    ["body.email", "body.name", "body.isAdmin"],
  ],
];

export const userPatches: Case[] = [
  ["an empty object", {}, ["body"]],
  ["an invalid e-mail", { email: "nope" }, ["body.email"]],
  ["a name of spaces only", { name: "   " }, ["body.name"]],
  ["a name that is null", { name: null }, ["body.name"]],
  [
    "a known field and a server-computed one",
    { name: "Fine", createdAt: "2025-01-01T00:00:00.000Z" },
    ["body.createdAt"],
  ],
  // The unknown key is refused, and what is left is empty: both are reported.
  ["only a server-computed field", { id: MISSING_ID }, ["body", "body.id"]],
  ["a role beside a known field", { name: "Fine", role: "admin" }, ["body.role"]],
];

export const newProduct = (fields: Body): Body => ({ name: "Valid Product", priceCents: 100, stock: 1, ...fields });
export const productBodies: Case[] = [
  ["no name", { priceCents: 100, stock: 1 }, ["body.name"]],
  ["an empty name", newProduct({ name: "" }), ["body.name"]],
  ["a name of 201 characters", newProduct({ name: "p".repeat(201) }), ["body.name"]],
  ["a name that is a number", newProduct({ name: 5 }), ["body.name"]],
  ["a name with a NUL character", newProduct({ name: NUL }), ["body.name"]],
  ["a description of 2001 characters", newProduct({ description: "d".repeat(2001) }), ["body.description"]],
  ["a description that is a number", newProduct({ description: 5 }), ["body.description"]],
  ["a description with a NUL character", newProduct({ description: NUL }), ["body.description"]],
  ["no priceCents", { name: "P", stock: 1 }, ["body.priceCents"]],
  ["a negative priceCents", newProduct({ priceCents: -1 }), ["body.priceCents"]],
  ["priceCents over 100000000", newProduct({ priceCents: 100_000_001 }), ["body.priceCents"]],
  ["a fractional priceCents", newProduct({ priceCents: 1.5 }), ["body.priceCents"]],
  ["priceCents as a string", newProduct({ priceCents: "5" }), ["body.priceCents"]],
  ["priceCents null", newProduct({ priceCents: null }), ["body.priceCents"]],
  ["no stock", { name: "P", priceCents: 1 }, ["body.stock"]],
  ["a negative stock", newProduct({ stock: -1 }), ["body.stock"]],
  ["stock over 1000000", newProduct({ stock: 1_000_001 }), ["body.stock"]],
  ["a fractional stock", newProduct({ stock: 2.5 }), ["body.stock"]],
  ["stock as a string", newProduct({ stock: "5" }), ["body.stock"]],
  [
    "a server-computed id and createdAt",
    newProduct({ id: MISSING_ID, createdAt: "2025-01-01T00:00:00.000Z" }),
    ["body.id", "body.createdAt"],
  ],
  ["an unknown field", newProduct({ sku: "X-1" }), ["body.sku"]],
  ["an empty object", {}, ["body.name", "body.priceCents", "body.stock"]],
  [
    "several failing fields at once",
    { name: "", priceCents: -1, stock: "5", colour: "red" },
    ["body.name", "body.priceCents", "body.stock", "body.colour"],
  ],
];

export const productPatches: Case[] = [
  ["an empty object", {}, ["body"]],
  ["a negative priceCents", { priceCents: -1 }, ["body.priceCents"]],
  ["stock as a string", { stock: "5" }, ["body.stock"]],
  ["an empty name", { name: "" }, ["body.name"]],
  [
    "a server-computed updatedAt next to a valid field",
    { stock: 3, updatedAt: "2025-01-01T00:00:00.000Z" },
    ["body.updatedAt"],
  ],
];

// Ids that name nothing: should validation ever let one of these through, the answer is a 422, never a new row.
export const newOrder = (fields: Body): Body => ({ productId: MISSING_ID, quantity: 1, ...fields });
export const orderBodies: Case[] = [
  ["quantity 0", newOrder({ quantity: 0 }), ["body.quantity"]],
  ["quantity 101", newOrder({ quantity: 101 }), ["body.quantity"]],
  ["a negative quantity", newOrder({ quantity: -1 }), ["body.quantity"]],
  ["a fractional quantity", newOrder({ quantity: 1.5 }), ["body.quantity"]],
  ['quantity as a string ("5")', newOrder({ quantity: "5" }), ["body.quantity"]],
  ["quantity null", newOrder({ quantity: null }), ["body.quantity"]],
  ["no quantity", { productId: MISSING_ID }, ["body.quantity"]],
  // The order's user is the caller: a userId, valid or not, is an unknown field.
  ["a userId (the caller's user is the order's)", newOrder({ userId: MISSING_ID }), ["body.userId"]],
  ["a userId that is not a UUID", newOrder({ userId: "user-1" }), ["body.userId"]],
  ["a productId that is not a UUID", newOrder({ productId: "" }), ["body.productId"]],
  ["no productId", { quantity: 1 }, ["body.productId"]],
  [
    "server-computed totals and status",
    newOrder({ totalCents: 1, unitPriceCents: 1, status: "delivered" }),
    ["body.totalCents", "body.unitPriceCents", "body.status"],
  ],
  ["a server-computed id", newOrder({ id: MISSING_ID }), ["body.id"]],
  ["an empty object", {}, ["body.productId", "body.quantity"]],
  [
    "several failing fields at once",
    { userId: "x", productId: 1, quantity: 0, note: "" },
    ["body.userId", "body.productId", "body.quantity", "body.note"],
  ],
];

export const orderPatches: Case[] = [
  ["an empty object", {}, ["body.status"]],
  ["an unknown status", { status: "returned" }, ["body.status"]],
  ["a status in upper case", { status: "SHIPPED" }, ["body.status"]],
  ["a status that is a number", { status: 1 }, ["body.status"]],
  ["a quantity next to the status", { status: "shipped", quantity: 2 }, ["body.quantity"]],
  ["a quantity instead of the status", { quantity: 2 }, ["body.status", "body.quantity"]],
];

export const newRegistration = (fields: Body): Body => ({
  email: uniqueEmail("badreg"),
  name: "Valid Name",
  password: "long-enough",
  ...fields,
});
export const registerBodies: Case[] = [
  ["a password of 7 characters", newRegistration({ password: "1234567" }), ["body.password"]],
  ["a password of 129 characters", newRegistration({ password: "p".repeat(129) }), ["body.password"]],
  ["a password that is a number", newRegistration({ password: 12345678 }), ["body.password"]],
  ["a password with a NUL character", newRegistration({ password: `long${NUL}enough` }), ["body.password"]],
  ["no password", { email: uniqueEmail("badreg"), name: "N" }, ["body.password"]],
  ["an invalid e-mail", newRegistration({ email: "at@" }), ["body.email"]],
  ["an e-mail of 255 characters", newRegistration({ email: email255 }), ["body.email"]],
  ["a name of spaces only", newRegistration({ name: "  " }), ["body.name"]],
  ["a role", newRegistration({ role: "admin" }), ["body.role"]],
  [
    "a password hash instead of a password",
    { email: uniqueEmail("badreg"), name: "N", passwordHash: "x" },
    ["body.password", "body.passwordHash"],
  ],
  ["a server-computed id", newRegistration({ id: MISSING_ID }), ["body.id"]],
  ["an empty object", {}, ["body.email", "body.name", "body.password"]],
];

export const loginBodies: Case[] = [
  ["an empty object", {}, ["body.email", "body.password"]],
  ["an empty e-mail and password", { email: "", password: "" }, ["body.email", "body.password"]],
  ["an e-mail of 255 characters", { email: email255, password: "x" }, ["body.email"]],
  ["a password of 129 characters", { email: "a@example.com", password: "p".repeat(129) }, ["body.password"]],
  ["an e-mail that is a number", { email: 1, password: "x" }, ["body.email"]],
  ["an unknown field", { email: "a@example.com", password: "x", remember: true }, ["body.remember"]],
];

// ---- query tables: [query string, the exact failing paths] --------------------------------------------------

export const pagingQueries: Array<[string, string[]]> = [
  ["limit=1&limit=2", ["query.limit"]],
  ["page=1&page=1", ["query.page"]],
  ["page=0", ["query.page"]],
  ["page=1000001", ["query.page"]],
  ["page=1.5", ["query.page"]],
  ["page=abc", ["query.page"]],
  ["page=1e1", ["query.page"]],
  ["page=-1", ["query.page"]],
  ["page=%2B2", ["query.page"]],
  ["page=0x2", ["query.page"]],
  ["page=", ["query.page"]],
  ["limit=0", ["query.limit"]],
  ["limit=101", ["query.limit"]],
  ["limit=1.5", ["query.limit"]],
  ["limit=abc", ["query.limit"]],
  ["limit=1e1", ["query.limit"]],
  ["limit=%201", ["query.limit"]],
  ["unknown=1", ["query.unknown"]],
  ["page=0&limit=abc&foo=1", ["query.page", "query.limit", "query.foo"]],
];

/** A cursor as the API writes it, for the newest-first lists. */
const NEWEST_CURSOR = encodeCursor("-createdAt", { key: "2026-01-01T00:00:00.000Z", id: MISSING_ID });
/** base64url of JSON the API would never write: the same position, but not the same bytes. */
const unwritten = (json: string) => Buffer.from(json, "utf8").toString("base64url");

/** Every list refuses these cursors, `total`s and combinations (docs/api.md, "Lists"). */
export const cursorQueries: Array<[string, string[]]> = [
  ["cursor=", ["query.cursor"]],
  ["cursor=a%2Bb", ["query.cursor"]],
  ["cursor=abc", ["query.cursor"]],
  ["cursor=a&cursor=b", ["query.cursor"]],
  [`cursor=${encodeCursor("name", { key: "Desk", id: MISSING_ID })}`, ["query.cursor"]],
  [`cursor=${unwritten(`["-createdAt", "2026-01-01T00:00:00.000Z", "${MISSING_ID}"]`)}`, ["query.cursor"]],
  [`cursor=${unwritten(`["-createdAt","2026-13-45T00:00:00.000Z","${MISSING_ID}"]`)}`, ["query.cursor"]],
  [`cursor=${unwritten(`["-createdAt","2026-02-30T00:00:00.000Z","${MISSING_ID}"]`)}`, ["query.cursor"]],
  [`cursor=${unwritten(`["-createdAt","2026-01-01T00:00:00.000Z","not-a-uuid"]`)}`, ["query.cursor"]],
  [`cursor=${unwritten(`["-createdAt","2026-01-01T00:00:00.000Z"]`)}`, ["query.cursor"]],
  [`cursor=${NEWEST_CURSOR}&page=1`, ["query.page"]],
  [`cursor=${NEWEST_CURSOR}&page=0`, ["query.page"]],
  ["total=yes", ["query.total"]],
  ["total=1", ["query.total"]],
  ["total=true&total=true", ["query.total"]],
];

export const userQueries: Array<[string, string[]]> = [
  ["q=", ["query.q"]],
  [`q=${"q".repeat(101)}`, ["query.q"]],
  ["q=a%00b", ["query.q"]],
  ["q=ada&q=bob", ["query.q"]],
  ["search=ada", ["query.search"]],
];

export const productQueries: Array<[string, string[]]> = [
  ["sort=price", ["query.sort"]],
  ["sort=-name", ["query.sort"]],
  ["sort=PRICECENTS", ["query.sort"]],
  ["sort=", ["query.sort"]],
  ["inStock=yes", ["query.inStock"]],
  ["inStock=1", ["query.inStock"]],
  ["inStock=TRUE", ["query.inStock"]],
  ["minPriceCents=-1", ["query.minPriceCents"]],
  ["minPriceCents=1.5", ["query.minPriceCents"]],
  ["minPriceCents=100000001", ["query.minPriceCents"]],
  ["maxPriceCents=abc", ["query.maxPriceCents"]],
  ["minPriceCents=10&maxPriceCents=5", ["query.minPriceCents"]],
  [`sort=priceCents&cursor=${encodeCursor("name", { key: "Desk", id: MISSING_ID })}`, ["query.cursor"]],
  [`sort=name&cursor=${encodeCursor("name", { key: 5, id: MISSING_ID })}`, ["query.cursor"]],
  [`sort=priceCents&cursor=${encodeCursor("priceCents", { key: 100_000_001, id: MISSING_ID })}`, ["query.cursor"]],
  ["q=", ["query.q"]],
  ["q=%00", ["query.q"]],
  ["category=lamps", ["query.category"]],
  ["sort=name&inStock=maybe&page=0", ["query.inStock", "query.page"]],
];

export const orderQueries: Array<[string, string[]]> = [
  ["status=lost", ["query.status"]],
  ["status=PENDING", ["query.status"]],
  ["status=", ["query.status"]],
  ["status=pending&status=shipped", ["query.status"]],
  ["userId=abc", ["query.userId"]],
  ["productId=00000000-0000-4000-8000-00000000000", ["query.productId"]],
  ["include=users", ["query.include"]],
  ["include=user,user", ["query.include"]],
  ["include=", ["query.include"]],
  ["include=user,", ["query.include"]],
  ["include=USER", ["query.include"]],
  ["include=user,product,user", ["query.include"]],
  ["include=user%20product", ["query.include"]],
  ["include=user&include=product", ["query.include"]],
  ["sort=createdAt", ["query.sort"]],
  ["status=lost&userId=abc&limit=0", ["query.status", "query.userId", "query.limit"]],
];

export const orderByIdQueries: Array<[string, string[]]> = [
  ["include=customer", ["query.include"]],
  ["include=product,product", ["query.include"]],
  ["page=1", ["query.page"]],
  ["foo=bar", ["query.foo"]],
];
