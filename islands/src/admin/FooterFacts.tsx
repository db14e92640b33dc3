// 'Stopka' in 'Dane gabinetu': the description of the practice and its profiles in social
// networks, which the footer of every page shows. The limits are the server's (FOOTER_LIMITS).
import { FOOTER_LIMITS } from "../generated/schema";
import type { ReactNode } from "react";
import type { PracticeFacts, SocialLink } from "./api";

type Set = (patch: Partial<PracticeFacts>) => void;

/** Which field of a profile is wrong and why, or null: the rules the server checks. */
function socialProblem(link: SocialLink): ["name" | "url", string] | null {
  const name = link.name.trim();
  if (name === "" || name.length > FOOTER_LIMITS.socialName) {
    return ["name", `Wpisz nazwę serwisu (do ${FOOTER_LIMITS.socialName} znaków), na przykład Facebook.`];
  }
  const rest = link.url.startsWith("https://") ? link.url.slice("https://".length) : null;
  if (rest === null || !rest.includes(".") || /\s/.test(rest)) {
    return ["url", "Wklej pełny adres profilu, zaczynający się od https://."];
  }
  return null;
}

/** The footer's problems by the id of the field to fix. */
export function footerProblems(facts: PracticeFacts): Record<string, string> {
  const out: Record<string, string> = {};
  if (facts.description.trim() === "") out["fact-description"] = "Wpisz kilka słów o gabinecie: stopka je pokazuje.";
  facts.social.forEach((link, i) => {
    const problem = socialProblem(link);
    if (problem) out[`social-${i}-${problem[0]}`] = problem[1];
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
          maxLength={FOOTER_LIMITS.description}
          aria-describedby={
            errors["fact-description"] ? "fact-description-hint fact-description-error" : "fact-description-hint"
          }
          aria-invalid={errors["fact-description"] ? true : undefined}
          onChange={(e) => set({ description: e.target.value.replace(/\s*\n\s*/g, " ") })}
        />
        <p id="fact-description-hint" className="muted">
          Pod nazwą gabinetu w stopce każdej strony. {length} z {FOOTER_LIMITS.description} znaków.
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
                  maxLength={FOOTER_LIMITS.socialName}
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
      {facts.social.length < FOOTER_LIMITS.social && (
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
