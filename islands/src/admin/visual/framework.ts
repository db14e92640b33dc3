// The editor framework the visual editor uses, every value of it imported through this one file:
// build.mjs bundles it first on its own (ProseMirror, prosemirror-markdown, markdown-it), so that
// the panel's bundle holds it whole and the chunk it shares with the public islands stays as it is.
export { baseKeymap, setBlockType, toggleMark } from "prosemirror-commands";
export { history, redo, undo } from "prosemirror-history";
export { keymap } from "prosemirror-keymap";
export {
  MarkdownParser,
  MarkdownSerializer,
  defaultMarkdownSerializer,
  schema as markdownSchema,
} from "prosemirror-markdown";
export { Schema } from "prosemirror-model";
export { liftListItem, splitListItem, wrapInList } from "prosemirror-schema-list";
export { EditorState, TextSelection } from "prosemirror-state";
export { EditorView } from "prosemirror-view";
export { default as MarkdownIt } from "markdown-it";
