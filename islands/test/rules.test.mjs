// The rules the form and the server share, judged alike: the cases of tests/vectors/ are run
// here against the panel's and the contact form's TypeScript, and by `cargo test` against the Rust
// (sidecar/src/inbox/rules.rs, generator/content/src/footer.rs).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { before, describe, test } from "node:test";
import { load, src } from "./bundle.mjs";

const vectors = (name) => JSON.parse(readFileSync(join(src, "..", "..", "tests", "vectors", name), "utf8"));

describe("the contact form's rules", () => {
  const { base, cases } = vectors("contact.json");
  let rules;
  let messages;
  before(async () => {
    rules = await load("contact/rules.ts");
    messages = rules.rules.messages;
  });
  const text = (value) => (typeof value === "object" ? value.repeat.repeat(value.times) : value);
  for (const { input, errors } of cases) {
    const given = Object.fromEntries(Object.entries({ ...base, ...input }).map(([k, v]) => [k, text(v)]));
    const shown = JSON.stringify(input, (_, v) => (typeof v === "string" && v.length > 40 ? `${v.slice(0, 5)}…` : v));
    test(`${shown} → ${JSON.stringify(errors)}`, () => {
      const expected = Object.fromEntries(Object.entries(errors).map(([field, key]) => [field, messages[key]]));
      assert.deepEqual(rules.validate(given), expected);
    });
  }
});

describe("the footer's rules", () => {
  const { social, description } = vectors("footer.json");
  let footer;
  before(async () => {
    footer = await load("admin/FooterFacts.tsx");
  });
  for (const { name, url, problem } of social) {
    test(`profile ${JSON.stringify(name)} ${JSON.stringify(url)} → ${problem}`, () => {
      assert.equal(footer.socialProblem(name, url), problem);
    });
  }
  for (const [text, ok] of description) {
    test(`description ${JSON.stringify(text)} → ${ok ? "shown" : "refused"}`, () => {
      assert.equal(footer.descriptionOk(text), ok);
    });
  }
});
