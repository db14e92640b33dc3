// 'Klucze dostępu': signing in with a fingerprint, a face or the device's PIN; added and removed.
import { useCallback, useEffect, useState, type FormEvent } from "react";
import { addPasskey, security, type PasskeyInfo } from "../account";
import type { Toast } from "../saving";
import { when } from "../time";
import { errorText, FAILED } from "./errors";

export default function Passkeys({ toast }: { toast: Toast }) {
  const [list, setList] = useState<PasskeyInfo[]>([]);
  const [error, setError] = useState("");
  const load = useCallback(() => security.passkeys().then(setList, () => setError(FAILED)), []);
  useEffect(() => void load(), [load]);
  const add = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    setError("");
    try {
      await addPasskey(String(new FormData(form).get("name") ?? "").trim());
      form.reset();
      toast("success", { title: "Sukces", text: "Dodano klucz dostępu." });
      void load();
    } catch (e) {
      setError(errorText(e));
    }
  };
  const remove = async (key: PasskeyInfo) => {
    if (!window.confirm(`Usunąć klucz „${key.name}”?`)) return;
    try {
      await security.removePasskey(key.id);
      void load();
    } catch (e) {
      setError(errorText(e));
    }
  };
  return (
    <section className="admin-card" aria-labelledby="passkeys-title">
      <h2 id="passkeys-title">Klucze dostępu</h2>
      <p>
        Klucz dostępu to logowanie odciskiem palca, twarzą lub kodem PIN telefonu albo komputera, bez hasła. Działa
        tylko na adresie tego panelu, więc nikt nie wyłudzi go fałszywą stroną.
      </p>
      {list.length > 0 && (
        <ul className="passkey-list">
          {list.map((k) => (
            <li key={k.id}>
              <span>
                {k.name} <span className="muted">· dodany {when(k.createdAt)}</span>
                {k.lastUsedAt && <span className="muted"> · użyty {when(k.lastUsedAt)}</span>}
              </span>
              <button type="button" className="btn btn-secondary btn-small" onClick={() => remove(k)}>
                Usuń<span className="visually-hidden"> klucz {k.name}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={add} noValidate>
        <div className="field">
          <label htmlFor="passkey-name">Nazwa klucza (np. „Telefon Magdy”)</label>
          <input id="passkey-name" name="name" type="text" maxLength={60} />
        </div>
        <button type="submit" className="btn btn-primary">
          Dodaj klucz dostępu
        </button>
      </form>
      {error && (
        <p className="form-notice form-notice-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
