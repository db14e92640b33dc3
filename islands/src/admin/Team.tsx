// 'Zespół': the therapists as the page 'O nas' shows them, in its order. A profile is edited
// (name, role, photo from the site's pictures, qualifications one to a line, the text under
// the name), a new therapist added, and the order changed with 'Wyżej' and 'Niżej'. A refused
// save is said under the field it names.
import { useCallback, useEffect, useMemo, useState, type ReactNode } from "react";
import { team as teamApi, type Picture, type Profile, type TeamChanged, type TeamMember } from "./api";
import FocusPicker from "./FocusPicker";
import PicturePicker from "./PicturePicker";
import { HistoryToggle } from "./History";
import { showProblem, type Place } from "./problems";
import { DraftNotice, useFormDraft } from "./formDraft";
import SaveMessage from "./SaveMessage";
import { SAVED, refusal, savedAt, watchPublishing, type Outcome, type Toast } from "./saving";

const LOAD_FAILED = { title: "Błąd", text: "Nie udało się pobrać zespołu." };
const EMPTY: Profile = { name: "", role: "", photo: "", photoAlt: "", imageFocus: "", qualifications: [], body: "" };
/** Who is edited: a profile by its slug, or a new one. */
type Editing = { slug: string } | { slug: null };

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

function ProfileForm({
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
          hint="Zdjęcia przesyła się w części „Obrazy”."
          invalid={marked === "photo"}
          describedBy={marked === "photo" ? "profile-photo-problem" : undefined}
          onChange={(photo) => {
            const picked = pictures.find((p) => p.file === photo);
            set({ photo, photoAlt: profile.photoAlt || (picked?.alt ?? "") });
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
            {...aria("photo-alt")}
            onChange={(e) => set({ photoAlt: oneLine(e.target.value) })}
          />,
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

/** The profile as it will be sent: qualifications without empty lines. */
function cleaned(profile: Profile): Profile {
  return { ...profile, qualifications: profile.qualifications.map((q) => q.trim()).filter(Boolean) };
}

export default function Team({
  pictures,
  toast,
  onDirty,
}: {
  pictures: Picture[];
  toast: Toast;
  onDirty: (dirty: boolean) => void;
}) {
  const [team, setTeam] = useState<TeamMember[] | null>(null);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [profile, setProfile] = useState<Profile>(EMPTY);
  const [saving, setSaving] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const load = useCallback(async () => {
    try {
      setTeam(await teamApi.list());
    } catch {
      toast("error", LOAD_FAILED);
    }
  }, [toast]);
  useEffect(() => void load(), [load]);
  const current = editing?.slug ? team?.find((m) => m.slug === editing.slug) : undefined;
  // Unsaved typing is kept in this browser per profile (and for a new one) until it is saved.
  const loaded = useMemo(
    () => (editing ? { value: current?.profile ?? EMPTY, version: current?.version ?? "" } : null),
    [editing, current],
  );
  const draft = useFormDraft(`team/${editing?.slug ?? "new"}`, loaded, editing ? profile : null, onDirty);
  const { dirty, offered } = draft;
  if (!team) return <p role="status">Ładowanie zespołu…</p>;

  const open = (next: Editing, start: Profile) => {
    if (dirty && !window.confirm("Masz niezapisane zmiany w profilu. Porzucić je?")) return;
    setEditing(next);
    setProfile(start);
    setOutcome(null);
    showProblem("profile-name");
  };
  const done = (result: TeamChanged) => {
    setTeam(result.team);
    toast("success", SAVED);
    if (result.warning) toast("error", { title: "Uwaga", text: result.warning });
    void watchPublishing(toast, result.publishing);
    setOutcome(savedAt(null, result.published));
  };
  const save = async () => {
    if (!editing) return;
    setSaving(true);
    const sent = cleaned(profile);
    try {
      const result = editing.slug
        ? await teamApi.save(editing.slug, sent, current?.version ?? "")
        : await teamApi.create(sent);
      draft.saved();
      done(result);
      setEditing({ slug: result.slug });
      setProfile(result.team.find((m) => m.slug === result.slug)?.profile ?? sent);
    } catch (e) {
      const message = refusal(e);
      toast("error", message);
      setOutcome({ ok: false, text: message.text, place: message.place ?? null });
    } finally {
      setSaving(false);
    }
  };
  const remove = async (member: TeamMember) => {
    const question = `Usunąć terapeutę ${member.profile.name} z zespołu? Zniknie ze strony „O nas”; jego profil zostanie w historii zmian.`;
    if (!window.confirm(question)) return;
    try {
      const result = await teamApi.remove(member.slug, member.version);
      setTeam(result.team);
      setEditing(null);
      setOutcome(null);
      toast("success", { title: "Sukces", text: `Usunięto z zespołu: ${member.profile.name}.` });
      void watchPublishing(toast, result.publishing);
    } catch (e) {
      const message = refusal(e);
      toast("error", message);
      setOutcome({ ok: false, text: message.text, place: message.place ?? null });
    }
  };
  const move = async (i: number, by: number) => {
    const order = [...team];
    const [moved] = order.splice(i, 1);
    if (!moved) return;
    order.splice(i + by, 0, moved);
    try {
      done(await teamApi.reorder(order.map((m) => ({ slug: m.slug, version: m.version }))));
      // The button pressed may now be disabled (first or last): focus the one that is not.
      const at = i + by;
      const direction = by < 0 ? (at === 0 ? "down" : "up") : at === order.length - 1 ? "up" : "down";
      showProblem(`team-${direction}-${moved.slug}`);
    } catch (e) {
      const message = refusal(e);
      toast("error", message);
      setOutcome({ ok: false, text: message.text, place: message.place ?? null });
    }
  };
  return (
    <section className="admin-card team" aria-labelledby="team-heading">
      <h2 id="team-heading">Zespół</h2>
      <p className="muted">Terapeuci w kolejności, w jakiej pokazuje ich strona „O nas”.</p>
      <ol className="team-list">
        {team.map((m, i) => {
          const photo = pictures.find((p) => p.file === m.profile.photo);
          return (
            <li key={m.slug} className={editing?.slug === m.slug ? "team-member is-open" : "team-member"}>
              {photo ? (
                <img className="profile-thumb" src={photo.url} alt="" width="48" height="60" />
              ) : (
                <span className="profile-thumb" />
              )}
              <span className="team-name">
                <strong>{m.profile.name}</strong>
                <span className="muted">{m.profile.role}</span>
              </span>
              <span className="team-actions">
                <button
                  type="button"
                  className="btn btn-secondary btn-small"
                  aria-expanded={editing?.slug === m.slug}
                  onClick={() => open({ slug: m.slug }, m.profile)}
                >
                  Edytuj<span className="visually-hidden"> profil: {m.profile.name}</span>
                </button>
                <button
                  id={`team-up-${m.slug}`}
                  type="button"
                  className="btn btn-secondary btn-small"
                  disabled={i === 0}
                  onClick={() => void move(i, -1)}
                >
                  Wyżej<span className="visually-hidden">: {m.profile.name}</span>
                </button>
                <button
                  id={`team-down-${m.slug}`}
                  type="button"
                  className="btn btn-secondary btn-small"
                  disabled={i === team.length - 1}
                  onClick={() => void move(i, 1)}
                >
                  Niżej<span className="visually-hidden">: {m.profile.name}</span>
                </button>
              </span>
            </li>
          );
        })}
      </ol>
      <button type="button" className="btn btn-primary" onClick={() => open({ slug: null }, EMPTY)}>
        Dodaj terapeutę
      </button>
      {editing && offered && (
        <DraftNotice
          what={editing.slug ? "tego profilu" : "nowego profilu"}
          at={offered.at}
          stale={offered.version !== (current?.version ?? "")}
          onRestore={() => {
            setProfile(offered.value);
            draft.settle(true);
          }}
          onDiscard={() => draft.settle(false)}
        />
      )}
      {editing && (
        <ProfileForm
          key={editing.slug ?? "new"}
          profile={profile}
          isNew={editing.slug === null}
          pictures={pictures}
          saving={saving}
          outcome={outcome}
          onChange={setProfile}
          onSave={() => void save()}
          onCancel={() => {
            setEditing(null);
            setOutcome(null);
          }}
          onRemove={current ? () => void remove(current) : undefined}
        />
      )}
      {editing?.slug && current && (
        <HistoryToggle
          doc={`team/${editing.slug}`}
          version={current.version}
          previewable={false}
          onRestored={async () => {
            const list = await teamApi.list();
            setTeam(list);
            const restored = list.find((m) => m.slug === editing.slug);
            if (restored) setProfile(restored.profile);
          }}
          toast={toast}
        />
      )}
    </section>
  );
}
