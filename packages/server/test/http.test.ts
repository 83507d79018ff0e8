// JSON bodies from their bytes, as README "Edges of HTTP" (packages/contract) decides them for every implementation.
import { describe, expect, it } from "vitest";
import { parseJsonBody } from "../src/http.ts";

const utf8 = (s: string) => Buffer.from(s, "utf8");

describe("parseJsonBody", () => {
  it("ignores one UTF-8 byte-order mark", () => {
    expect(parseJsonBody(utf8('\uFEFF{"a":1}'))).toEqual({ a: 1 });
  });

  it.each([
    ["two byte-order marks", utf8('\uFEFF\uFEFF{"a":1}')],
    ["invalid UTF-8", Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d])],
    ["a surrogate encoded as UTF-8", Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d])],
    ["UTF-16", Buffer.from('\uFEFF{"a":1}', "utf16le")],
  ])("refuses %s as malformed JSON", (_, bytes) => {
    expect(() => parseJsonBody(bytes)).toThrow(expect.objectContaining({ kind: "malformedJson" }));
  });
});
