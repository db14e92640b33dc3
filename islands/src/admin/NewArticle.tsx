// 'Nowy artykuł': asks for a title, proposes the address (Polish letters folded), says when
// it is taken, asks who signs it (a name of the team), and creates the article unpublished.
import { useEffect, useState, type FormEvent } from "react";
import { api, isApiError } from "./api";
import Modal from "./Modal";

export interface NewArticleProps {
  /** The team's names, the default author (`site.yaml`) first: who can sign the article. */
  authors: string[];
  onCreated: (id: string) => void;
  onClose: () => void;
}

export default function NewArticle({ authors, onCreated, onClose }: NewArticleProps) {
  const [title, setTitle] = useState("");
  const [author, setAuthor] = useState(authors[0] ?? "");
  const [slug, setSlug] = useState("");
  const [edited, setEdited] = useState(false);
  const [taken, setTaken] = useState(false);
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (edited) return;
    const title_ = title.trim();
    if (!title_) {
      setSlug("");
      setTaken(false);
      return;
    }
    let current = true;
    const timer = setTimeout(() => {
      api.proposeSlug(title_).then(
        (p) => {
          if (!current) return;
          setSlug(p.slug);
          setTaken(p.taken);
        },
        () => undefined,
      );
    }, 150);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [title, edited]);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setError("");
    try {
      const made = await api.createArticle(title.trim(), slug.trim(), author);
      onCreated(made.id);
    } catch (e) {
      setError(isApiError(e) && e.error ? e.error : "Nie udało się utworzyć artykułu.");
      if (isApiError(e) && e.status === 409) setTaken(true);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal title="Nowy artykuł" onClose={onClose}>
      <form className="admin-dialog-body" onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor="new-article-title">Tytuł artykułu</label>
          <input
            id="new-article-title"
            type="text"
            value={title}
            required
            autoFocus
            onChange={(e) => setTitle(e.target.value.replace(/[\r\n]+/g, " "))}
          />
        </div>
        <div className={taken ? "field field-invalid" : "field"}>
          <label htmlFor="new-article-slug">Adres artykułu</label>
          <div className="slug-row">
            <span aria-hidden="true">/blog/</span>
            <input
              id="new-article-slug"
              type="text"
              value={slug}
              aria-describedby="new-article-slug-hint"
              onChange={(e) => {
                setEdited(true);
                setTaken(false);
                setSlug(e.target.value);
              }}
            />
          </div>
          <p id="new-article-slug-hint" className={taken ? "field-error" : "muted"}>
            {taken
              ? "Ten adres jest już zajęty: zmień tytuł albo adres."
              : "Proponowany z tytułu; małe litery bez polskich znaków, cyfry i myślniki."}
          </p>
        </div>
        <div className="field">
          <label htmlFor="new-article-author">Autor</label>
          <select id="new-article-author" value={author} onChange={(e) => setAuthor(e.target.value)}>
            {authors.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </div>
        {error && (
          <p className="form-notice form-notice-error" role="alert">
            {error}
          </p>
        )}
        <p className="muted">
          Nowy artykuł nie jest opublikowany, dopóki nie zaznaczysz „Opublikowany” i nie zapiszesz.
        </p>
        <div className="editor-actions">
          <button type="submit" className="btn btn-primary" disabled={busy || !title.trim() || !slug.trim() || taken}>
            {busy ? "Tworzenie…" : "Utwórz artykuł"}
          </button>
          <button type="button" className="btn btn-secondary" onClick={onClose}>
            Anuluj
          </button>
        </div>
      </form>
    </Modal>
  );
}
