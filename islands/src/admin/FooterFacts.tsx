// 'Stopka' in 'Dane gabinetu': the description of the practice and its profiles in social
// networks, which the footer of every page shows. The rules are the server's (FOOTER_RULES).
import { FOOTER_RULES } from "../generated/schema";
import type { ReactNode } from "react";
import type { PracticeFacts, SocialLink } from "./api";

type Set = (patch: Partial<PracticeFacts>) => void;

const SOCIAL_URL = new RegExp(FOOTER_RULES.urlPattern);

/**
 * Which part of a profile is wrong, or null: the rule the server checks (content::footer, one
 * definition; tests/vectors/footer.json holds the cases both sides must judge alike).
 */
export function socialProblem(name: string, url: string): "name" | "url" | null {
  const named = name.trim();
  if (named === "" || [...named].length > FOOTER_RULES.socialName) return "name";
  if ([...url].length > FOOTER_RULES.urlMax || !SOCIAL_URL.test(url)) return "url";
  return null;
}

/** Whether the footer's description is one it can show: some words, one line, not too long. */
export function descriptionOk(description: string): boolean {
  const text = description.trim();
  return text !== "" && [...text].length <= FOOTER_RULES.description && !text.includes("\n");
}

/** The footer's problems by the id of the field to fix. */
export function footerProblems(facts: PracticeFacts): Record<string, string> {
  const out: Record<string, string> = {};
  if (!descriptionOk(facts.description)) out["fact-description"] = FOOTER_RULES.messages.description;
  facts.social.forEach((link, i) => {
    const problem = socialProblem(link.name, link.url);
    if (problem === "name") out[`social-${i}-name`] = FOOTER_RULES.messages.socialName;
    if (problem === "url") out[`social-${i}-url`] = FOOTER_RULES.messages.socialUrl;
  });
  return out;
}

export default function FooterFacts({
  facts,
  set,
  errors,
  confirm,
}: {
  facts: PracticeFacts;
  set: Set;
  errors: Record<string, string>;
  /** The confirmation that the profiles are the practice's own, while they are examples. */
  confirm?: ReactNode;
}) {
  const setLink = (i: number, patch: Partial<SocialLink>) =>
    set({ social: facts.social.map((s, j) => (j === i ? { ...s, ...patch } : s)) });
  const length = facts.description.length;
  return (
    <fieldset className="settings">
      <legend>Stopka</legend>
      <div className="field">
        <label htmlFor="fact-description">Opis gabinetu</label>
        <textarea
          id="fact-description"
          rows={3}
          value={facts.description}
          maxLength={FOOTER_RULES.description}
          aria-describedby={
            errors["fact-description"] ? "fact-description-hint fact-description-error" : "fact-description-hint"
          }
          aria-invalid={errors["fact-description"] ? true : undefined}
          onChange={(e) => set({ description: e.target.value.replace(/\s*\n\s*/g, " ") })}
        />
        <p id="fact-description-hint" className="muted">
          Pod nazwą gabinetu w stopce każdej strony. {length} z {FOOTER_RULES.description} znaków.
        </p>
        {errors["fact-description"] && (
          <p id="fact-description-error" className="field-error">
            {errors["fact-description"]}
          </p>
        )}
      </div>
      {confirm}
      {facts.social.map((link, i) => {
        const invalid = (field: string) => (errors[`social-${i}-${field}`] ? true : undefined);
        const problem = errors[`social-${i}-name`] ?? errors[`social-${i}-url`];
        const hint = `social-${i}-problem`;
        return (
          <fieldset key={i} className="hours-row">
            <legend>Profil {i + 1}</legend>
            <div className="field-row">
              <div className="field">
                <label htmlFor={`social-${i}-name`}>Serwis</label>
                <input
                  id={`social-${i}-name`}
                  value={link.name}
                  maxLength={FOOTER_RULES.socialName}
                  aria-invalid={invalid("name")}
                  aria-describedby={invalid("name") ? hint : undefined}
                  onChange={(e) => setLink(i, { name: e.target.value })}
                />
              </div>
              <div className="field">
                <label htmlFor={`social-${i}-url`}>Adres profilu</label>
                <input
                  id={`social-${i}-url`}
                  type="url"
                  value={link.url}
                  aria-invalid={invalid("url")}
                  aria-describedby={invalid("url") ? hint : undefined}
                  onChange={(e) => setLink(i, { url: e.target.value.trim() })}
                />
              </div>
            </div>
            {problem && (
              <p id={hint} className="field-error">
                {problem}
              </p>
            )}
            <button
              type="button"
              className="btn btn-secondary btn-small"
              onClick={() => set({ social: facts.social.filter((_, j) => j !== i) })}
            >
              Usuń profil<span className="visually-hidden"> {link.name || i + 1}</span>
            </button>
          </fieldset>
        );
      })}
      {facts.social.length < FOOTER_RULES.social && (
        <button
          type="button"
          className="btn btn-secondary btn-small"
          onClick={() => set({ social: [...facts.social, { name: "", url: "" }] })}
        >
          Dodaj profil w serwisie społecznościowym
        </button>
      )}
    </fieldset>
  );
}
