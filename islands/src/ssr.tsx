// Node entry: reads [{name, props, idPrefix}] as JSON on stdin, writes the rendered HTML of each as a
// JSON array on stdout. The generator batches every island of a build into one call.
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { islands } from "./registry";

interface Job {
  name: string;
  props: Record<string, unknown>;
  /** React's identifierPrefix for this island: its ids are unique on the page. */
  idPrefix: string;
}

function render(job: Job): string {
  const component = islands[job.name];
  if (!component) throw new Error(`unknown island '${job.name}'`);
  return renderToString(createElement(component, job.props), { identifierPrefix: job.idPrefix });
}

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk: string) => (input += chunk));
process.stdin.on("end", () => {
  try {
    const jobs = JSON.parse(input) as Job[];
    process.stdout.write(JSON.stringify(jobs.map(render)));
  } catch (error) {
    process.stderr.write(`island SSR failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
});
