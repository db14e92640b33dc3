// The visual editor's document and its Markdown: a ProseMirror schema of what a section holds
// (paragraphs, headings, lists, bold, italic, links, pictures and the practice's facts as
// `{{ name }}` chips), read from Markdown by markdown-it (CommonMark, as the site's
// pulldown-cmark reads it) and written back as the same plain Markdown the files hold: '-'
// bullets, '*' and '**', '## ' headings, tight lists kept tight. No DOM here: the round-trip
// test runs it in Node over every content file.
import type MarkdownItType from "markdown-it";
import type StateCore from "markdown-it/lib/rules_core/state_core.mjs";
import type Token from "markdown-it/lib/token.mjs";
import type { Node } from "prosemirror-model";
import {
  MarkdownIt,
  MarkdownParser,
  MarkdownSerializer,
  Schema,
  defaultMarkdownSerializer,
  markdownSchema as base,
} from "./framework";
import { PLACEHOLDER } from "../markdownEdits";

export const schema = new Schema({
  nodes: base.spec.nodes
    // A list made in the editor is tight, as the files' lists are: one point a line.
    .update("bullet_list", {
      ...base.spec.nodes.get("bullet_list"),
      attrs: { tight: { default: true }, bullet: { default: "-" } },
    })
    .update("ordered_list", {
      ...base.spec.nodes.get("ordered_list"),
      attrs: { order: { default: 1 }, tight: { default: true } },
    })
    .addBefore("image", "placeholder", {
      inline: true,
      group: "inline",
      atom: true,
      selectable: true,
      attrs: { name: { default: "" } },
      parseDOM: [
        {
          tag: "span[data-placeholder]",
          getAttrs: (dom: HTMLElement) => ({ name: dom.getAttribute("data-placeholder") ?? "" }),
        },
      ],
      toDOM: (node) => [
        "span",
        { "data-placeholder": node.attrs["name"], class: "chip" },
        `{{ ${node.attrs["name"]} }}`,
      ],
    }),
  marks: base.spec.marks,
});

/**
 * Splits each text of inline content at the facts it names, into text and `placeholder` tokens;
 * a line break inside a paragraph stays a line break in the file (the site shows it as a space).
 */
function placeholders(md: MarkdownItType): void {
  md.core.ruler.push("placeholders", (state: StateCore) => {
    for (const block of state.tokens) {
      if (block.type !== "inline" || !block.children) continue;
      const children: Token[] = [];
      for (const token of block.children) {
        if (token.type === "softbreak") {
          children.push(textToken(state, "\n"));
          continue;
        }
        if (token.type !== "text" || !token.content.includes("{{")) {
          children.push(token);
          continue;
        }
        let at = 0;
        for (const found of token.content.matchAll(PLACEHOLDER)) {
          const index = found.index ?? 0;
          if (index > at) children.push(textToken(state, token.content.slice(at, index)));
          const fact = new state.Token("placeholder", "", 0);
          fact.meta = { name: found[1] };
          children.push(fact);
          at = index + found[0].length;
        }
        if (at < token.content.length) children.push(textToken(state, token.content.slice(at)));
      }
      block.children = children;
    }
  });
}

function textToken(state: StateCore, content: string): Token {
  const token = new state.Token("text", "", 0);
  token.content = content;
  return token;
}

const tokenizer = MarkdownIt("commonmark", { html: false }).use(placeholders);

const parser = new MarkdownParser(schema, tokenizer, {
  blockquote: { block: "blockquote" },
  paragraph: { block: "paragraph" },
  list_item: { block: "list_item" },
  bullet_list: {
    block: "bullet_list",
    getAttrs: (tok, tokens, i) => ({ tight: listIsTight(tokens, i), bullet: tok.markup || "-" }),
  },
  ordered_list: {
    block: "ordered_list",
    getAttrs: (tok, tokens, i) => ({ order: Number(tok.attrGet("start") ?? 1), tight: listIsTight(tokens, i) }),
  },
  heading: { block: "heading", getAttrs: (tok) => ({ level: Number(tok.tag.slice(1)) }) },
  code_block: { block: "code_block", noCloseToken: true },
  fence: { block: "code_block", getAttrs: (tok) => ({ params: tok.info || "" }), noCloseToken: true },
  hr: { node: "horizontal_rule" },
  image: {
    node: "image",
    getAttrs: (tok) => ({
      src: tok.attrGet("src"),
      title: tok.attrGet("title") || null,
      alt: tok.children?.[0]?.content || null,
    }),
  },
  hardbreak: { node: "hard_break" },
  placeholder: { node: "placeholder", noCloseToken: true, getAttrs: (tok) => ({ name: tok.meta.name }) },
  em: { mark: "em" },
  strong: { mark: "strong" },
  link: {
    mark: "link",
    getAttrs: (tok) => ({ href: tok.attrGet("href"), title: tok.attrGet("title") || null }),
  },
  code_inline: { mark: "code", noCloseToken: true },
});

/** Whether the list opened at `tokens[i]` is tight (its paragraphs hidden), as markdown-it marks it. */
function listIsTight(tokens: Token[], i: number): boolean {
  while (++i < tokens.length) if (tokens[i]?.type !== "list_item_open") return Boolean(tokens[i]?.hidden);
  return false;
}

const serializer = new MarkdownSerializer(
  {
    ...defaultMarkdownSerializer.nodes,
    bullet_list(state, node) {
      state.renderList(node, "  ", () => `${node.attrs["bullet"] || "-"} `);
    },
    ordered_list(state, node) {
      // Each number as written, without padding ('9.' and '10.' alike).
      const start = Number(node.attrs["order"] ?? 1);
      state.renderList(node, "   ", (i) => `${start + i}. `);
    },
    placeholder(state, node) {
      state.write(`{{ ${node.attrs["name"]} }}`);
    },
  },
  { ...defaultMarkdownSerializer.marks, em: { ...defaultMarkdownSerializer.marks["em"]!, open: "*", close: "*" } },
);

/** The document a section's Markdown shows as. */
export function parseMarkdown(markdown: string): Node {
  return parser.parse(markdown);
}

/** The Markdown a document is stored as: no blank line at its end. */
export function serializeMarkdown(doc: Node): string {
  return serializer.serialize(doc, { tightLists: true }).replace(/\s+$/, "");
}

/** Whether the visual editor writes `markdown` back as it is (trailing blanks aside). */
export function keepsMarkdown(markdown: string): boolean {
  return serializeMarkdown(parseMarkdown(markdown)) === markdown.replace(/\s+$/, "");
}
