// A therapist's profile in 'Zespół': name, role, photo (from the site's pictures, with its text
// and focal point), qualifications one to a line, and the text under the name. A refused save is
// said under the field it names.
import { useEffect, type ReactNode } from "react";
import type { Picture, Profile } from "./api";
import FocusPicker from "./FocusPicker";
import PicturePicker from "./PicturePicker";
import { showProblem, type Place } from "./problems";
import { addPicture } from "./pages/store";
import SaveMessage from "./SaveMessage";
import { ALT_HINT } from "./upload";
import type { Outcome } from "./saving";

/** One line: a new line typed or pasted becomes a space. */
const oneLine = (text: string) => text.replace(/[\r\n]+/g, " ");

/** The form's field a refusal names: by the server's name of it, or the text for a section. */
function fieldOf(place: Place): string | null {
  if (place.section !== undefined) return "body";
  const fields: Record<string, string> = {
    name: "name",
    role: "role",
    photo: "photo",
    photoAlt: "photo-alt",
    qualifications: "qualifications",
  };
  return (place.field && fields[place.field]) ?? null;
}

export default function ProfileForm({
  profile,
  isNew,
  pictures,
  saving,
  outcome,
  onChange,
  onSave,
  onCancel,
  onRemove,
}: {
  profile: Profile;
  isNew: boolean;
  pictures: Picture[];
  saving: boolean;
  outcome: Outcome | null;
  /** Takes an update of the profile as it is when React applies it, never a stale copy. */
  onChange: (update: (profile: Profile) => Profile) => void;
  onSave: () => void;
  onCancel: () => void;
  /** Removes the therapist (existing profiles only). */
  onRemove?: (() => void) | undefined;
}) {
  const set = (patch: Partial<Profile>) => onChange((current) => ({ ...current, ...patch }));
  const place = outcome && !outcome.ok ? (outcome.place ?? null) : null;
  const problem = place?.text ?? null;
  const marked = place ? fieldOf(place) : null;
  useEffect(() => {
    if (marked) showProblem(`profile-${marked}`);
  }, [marked, problem]);
  const chosen = pictures.find((p) => p.file === profile.photo);
  const field = (name: string, label: string, input: ReactNode, hint?: string) => (
    <div className={marked === name ? "field has-problem" : "field"}>
      <label htmlFor={`profile-${name}`}>{label}</label>
      {input}
      {hint && (
        <p id={`profile-${name}-hint`} className="muted">
          {hint}
        </p>
      )}
      {marked === name && (
        <p id={`profile-${name}-problem`} className="field-problem">
          {problem}
        </p>
      )}
    </div>
  );
  const aria = (name: string, hint = false) => ({
    id: `profile-${name}`,
    "aria-invalid": marked === name || undefined,
    "aria-describedby":
      [hint ? `profile-${name}-hint` : "", marked === name ? `profile-${name}-problem` : ""]
        .filter(Boolean)
        .join(" ") || undefined,
  });
  return (
    <form
      className="settings profile-form"
      aria-labelledby="profile-title"
      onSubmit={(e) => {
        e.preventDefault();
        onSave();
      }}
    >
      <h3 id="profile-title">{isNew ? "Nowy terapeuta" : `Profil: ${profile.name}`}</h3>
      {field(
        "name",
        "Imię i nazwisko",
        <input
          type="text"
          required
          value={profile.name}
          {...aria("name")}
          onChange={(e) => set({ name: oneLine(e.target.value) })}
        />,
      )}
      {field(
        "role",
        "Rola",
        <input
          type="text"
          required
          value={profile.role}
          {...aria("role", true)}
          onChange={(e) => set({ role: oneLine(e.target.value) })}
        />,
        "Jedno zdanie pod imieniem, na przykład „Psycholożka, pracuje z parami”.",
      )}
      <div className="settings-image">
        <PicturePicker
          id="profile-photo"
          legend="Zdjęcie"
          name="profile-photo"
          pictures={pictures}
          value={profile.photo}
          required
          hint="Wybierz zdjęcie strony albo prześlij nowe poniżej."
          invalid={marked === "photo"}
          describedBy={marked === "photo" ? "profile-photo-problem" : undefined}
          onChange={(photo) => {
            const picked = pictures.find((p) => p.file === photo);
            set({ photo, photoAlt: profile.photoAlt || (picked?.alt ?? "") });
          }}
          onUploaded={(picture) => {
            addPicture(picture);
            set({ photo: picture.file, photoAlt: picture.alt ?? profile.photoAlt });
          }}
        />
        {marked === "photo" && (
          <p id="profile-photo-problem" className="field-problem">
            {problem}
          </p>
        )}
        {field(
          "photo-alt",
          "Tekst alternatywny zdjęcia",
          <input
            type="text"
            required
            value={profile.photoAlt}
            {...aria("photo-alt", true)}
            onChange={(e) => set({ photoAlt: oneLine(e.target.value) })}
          />,
          ALT_HINT,
        )}
        {chosen && (
          <FocusPicker
            id="profile-focus"
            src={chosen.url}
            value={profile.imageFocus}
            onChange={(imageFocus) => set({ imageFocus })}
          />
        )}
      </div>
      {field(
        "qualifications",
        "Kwalifikacje",
        <textarea
          rows={4}
          value={profile.qualifications.join("\n")}
          {...aria("qualifications", true)}
          onChange={(e) => set({ qualifications: e.target.value.split("\n") })}
        />,
        "Każda kwalifikacja w osobnym wierszu. Na stronie są pokazane jako plakietki.",
      )}
      {field(
        "body",
        "Opis",
        <textarea
          rows={8}
          value={profile.body}
          {...aria("body", true)}
          onChange={(e) => set({ body: e.target.value })}
        />,
        "Tekst pod imieniem i kwalifikacjami. Akapity oddziel pustym wierszem.",
      )}
      <div className="editor-actions save-bar">
        <button type="submit" className="btn btn-primary" disabled={saving}>
          {saving ? "Zapisywanie…" : isNew ? "Dodaj do zespołu" : "Zapisz zmiany"}
        </button>
        <button type="button" className="btn btn-secondary" onClick={onCancel}>
          Anuluj
        </button>
        {onRemove && (
          <button type="button" className="btn btn-secondary btn-danger" onClick={onRemove}>
            Usuń z zespołu
          </button>
        )}
        <SaveMessage outcome={outcome} />
      </div>
    </form>
  );
}
