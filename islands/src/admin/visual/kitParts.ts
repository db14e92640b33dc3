// What kit.ts loads when a visual editor is first shown: the editor, and the check of which
// texts it keeps as written. Only kit.ts imports this file, so these and the framework they
// import (ProseMirror, markdown-it) are a chunk of their own.
export { default as VisualEditor } from "./VisualEditor";
export { keepsMarkdown } from "./markdownDoc";
