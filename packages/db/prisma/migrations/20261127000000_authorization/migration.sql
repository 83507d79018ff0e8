-- Authorization: every user has a role, and an idempotency key belongs to the user who sent it.

CREATE TYPE "user_role" AS ENUM ('customer', 'admin');

-- Registration and POST /users make customers; admins are made by a command or the seed, never through the API.
ALTER TABLE "users" ADD COLUMN "role" "user_role" NOT NULL DEFAULT 'customer';

-- The same key sent by two users is two keys: a key never replays another user's answer.
ALTER TABLE "idempotency_keys" ADD COLUMN "user_id" UUID;

-- A recorded order names its user, so its key is kept; the request hash no longer covers a userId (the order's
-- user is the caller), so it is recomputed as the apps compute it: SHA-256 of {"productId","quantity"}. Refusals
-- and requests in flight name no user and cannot be kept.
UPDATE "idempotency_keys"
SET "user_id" = ("response_body" ->> 'userId')::UUID,
    "request_hash" = encode(sha256(convert_to(
        '{"productId":"' || lower("response_body" ->> 'productId') || '","quantity":' || ("response_body" ->> 'quantity') || '}',
        'UTF8')), 'hex')
WHERE "response_status" = 201;
DELETE FROM "idempotency_keys" WHERE "user_id" IS NULL;

ALTER TABLE "idempotency_keys" ALTER COLUMN "user_id" SET NOT NULL;
ALTER TABLE "idempotency_keys" DROP CONSTRAINT "idempotency_keys_pkey";
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY ("user_id", "key");
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_user_id_fkey"
    FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
