// The visual editor's Markdown round trip: every section of every content file under content/
// (pages, services, articles, team members) is read into the editor's document and written back, and must come
// back byte for byte, so that opening a text in the visual editor and saving it changes nothing.
// The editor's module is TypeScript: esbuild bundles it for Node first.
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { load } from "./bundle.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");
const content = join(root, "content");

let doc;
before(async () => {
  doc = await load("admin/visual/markdownDoc.ts");
});

const roundTrip = (markdown) => doc.serializeMarkdown(doc.parseMarkdown(markdown));

/** Every Markdown file under content/ with front matter: pages, services, articles, team members. */
function contentFiles(dir = content) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...contentFiles(path));
    // STYLE.md and the pictures' README are notes for editors, not content.
    else if (entry.name.endsWith(".md") && readFileSync(path, "utf8").startsWith("---\n")) found.push(path);
  }
  return found;
}

/** The body after the front matter (`generator/content/src/frontmatter.rs`). */
function body(text) {
  const lines = text.split("\n");
  assert.equal(lines[0].trimEnd(), "---", "a content file starts with its front matter");
  const end = lines.findIndex((line, i) => i > 0 && line.trimEnd() === "---");
  assert.ok(end > 0, "the front matter is closed");
  return lines.slice(end + 1).join("\n");
}

const MARKER = /^<!--\s*section:\s*([a-z0-9-]+)\s*-->\s*$/;

/** The sections' contents as the panel edits them (`generator/content/src/sections.rs`). */
function sections(text) {
  const chunks = [[]];
  for (const line of text.split("\n")) {
    if (MARKER.test(line.trim())) chunks.push([]);
    else chunks[chunks.length - 1].push(line);
  }
  const all = chunks.map((lines) =>
    lines
      .join("\n")
      .replace(/^[\r\n]+/, "")
      .trimEnd(),
  );
  // Text before the first marker that is only blank is no section.
  return chunks.length > 1 && all[0] === "" ? all.slice(1) : all;
}

describe("the visual editor's Markdown round trip", () => {
  const files = contentFiles();

  test("finds the site's content", () => {
    assert.ok(files.length >= 30, `content files found: ${files.length}`);
  });

  for (const file of files) {
    test(relative(root, file), () => {
      const parts = sections(body(readFileSync(file, "utf8")));
      for (const [i, markdown] of parts.entries()) {
        assert.equal(roundTrip(markdown), markdown, `section ${i + 1} of ${relative(root, file)}`);
      }
    });
  }

  test("keeps what the toolbar writes, and each fact as one chip", () => {
    const written = [
      "## Śródtytuł",
      "",
      "Tekst **pogrubiony**, *pochylony* i [link](/cennik) z {{ telefon }} oraz {{ cena.terapia-par }}.",
      "",
      "- pierwszy punkt",
      "- drugi punkt z {{ adres }}",
      "",
      "1. krok",
      "2. drugi krok",
      "",
      "![Opis obrazu](/images/las.svg)",
      "",
      "{{ uslugi_online }}",
    ].join("\n");
    assert.equal(roundTrip(written), written);
    const facts = [];
    doc.parseMarkdown(written).descendants((node) => {
      if (node.type.name === "placeholder") facts.push(node.attrs.name);
    });
    assert.deepEqual(facts, ["telefon", "cena.terapia-par", "adres", "uslugi_online"]);
  });

  test("writes a list made in the editor tight, one point a line", () => {
    const { schema } = doc;
    const item = (text) => schema.nodes.list_item.create(null, schema.nodes.paragraph.create(null, schema.text(text)));
    const made = schema.nodes.doc.create(null, [
      schema.nodes.bullet_list.create(null, [item("jeden"), item("dwa")]),
      schema.nodes.ordered_list.create(null, [item("pierwszy"), item("drugi")]),
    ]);
    assert.equal(doc.serializeMarkdown(made), "- jeden\n- dwa\n\n1. pierwszy\n2. drugi");
  });

  test("writes a fact in its usual spelling and leaves a name that is none as text", () => {
    assert.equal(roundTrip("Zadzwoń: {{telefon}}."), "Zadzwoń: {{ telefon }}.");
    assert.equal(roundTrip("Nawiasy {{ nie to }} zostają."), "Nawiasy {{ nie to }} zostają.");
  });
});
