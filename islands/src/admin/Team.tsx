// 'Zespół': the therapists as the page 'O nas' shows them, in its order. A profile is edited
// (name, role, photo from the site's pictures, qualifications one to a line, the text under
// the name), a new therapist added, and the order changed with 'Wyżej' and 'Niżej'. A refused
// save is said under the field it names.
import { useCallback, useEffect, useMemo, useState } from "react";
import { team as teamApi, type Profile, type TeamChanged, type TeamMember } from "./api";
import type { ViewProps } from "./app/views";
import { useStore } from "./app/store";
import { HistoryToggle } from "./History";
import { pagesStore } from "./pages/store";
import { showProblem } from "./problems";
import { DraftNotice, useFormDraft } from "./formDraft";
import ProfileForm from "./ProfileForm";
import { SAVED, refusal, savedAt, watchPublishing, type Outcome } from "./saving";

const LOAD_FAILED = { title: "Błąd", text: "Nie udało się pobrać zespołu." };
const EMPTY: Profile = { name: "", role: "", photo: "", photoAlt: "", imageFocus: "", qualifications: [], body: "" };
/** Who is edited: a profile by its slug, or a new one. */
type Editing = { slug: string } | { slug: null };

/** The profile as it will be sent: qualifications without empty lines. */
function cleaned(profile: Profile): Profile {
  return { ...profile, qualifications: profile.qualifications.map((q) => q.trim()).filter(Boolean) };
}

export default function Team({ toast, onDirty, route }: ViewProps) {
  const { pictures } = useStore(pagesStore);
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
  // A profile the address names (a search's result) is opened once the team is there.
  const named = team?.find((m) => m.slug === route.doc);
  useEffect(() => {
    if (!named) return;
    setEditing((open) => (open?.slug === named.slug ? open : { slug: named.slug }));
    setProfile(named.profile);
  }, [named]);
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
    showProblem("profile-name", "start");
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
