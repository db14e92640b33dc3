// The editor of one page: its name and state, the drafts offered back, its history, a conflict
// with a version saved meanwhile, its texts and settings, and its sections with the save bar.
import { openPreview, type Editable } from "../api";
import Conflict from "../Conflict";
import Editor from "../Editor";
import FieldsForm from "../FieldsForm";
import History from "../History";
import type { PageLink } from "../LinkDialog";
import { shortName } from "../names";
import { PANEL_ID, tabId } from "../PageTabs";
import SaveMessage from "../SaveMessage";
import type { Toast } from "../saving";
import SettingsForm from "../SettingsForm";
import DraftOffers from "./DraftOffers";
import NoPicture from "./NoPicture";
import PublishBar from "./PublishBar";
import { saved, type PagesState } from "./state";
import { edit, forget, loadPages, removeArticle, save, saveOnServer, takeTheirs, pagesStore } from "./store";

export interface PageEditorProps {
  page: Editable;
  state: PagesState;
  toast: Toast;
  /** The site's own pages, which 'Link' offers. */
  links: PageLink[];
  narrow: boolean;
  /** Asks which picture to put into section `index` (at `insert`, the visual view's cursor). */
  onInsertImage: (index: number, insert?: (markdown: string) => void) => void;
  onDeleted: () => void;
}

export default function PageEditor({ page, state, toast, links, narrow, onInsertImage, onDeleted }: PageEditorProps) {
  const current = state.edits[page.id] ?? saved(page);
  const change = (next: typeof current) => edit(page, next);
  const { outcome, problem, conflict, saving, showHistory } = state;
  return (
    <section id={PANEL_ID} role="tabpanel" aria-labelledby={tabId(page.id)} className="admin-editor" tabIndex={0}>
      <div className="admin-editor-head">
        <h2>{shortName(page)}</h2>
        {shortName(page) !== page.title && (
          <p className="admin-editor-title">
            <span className="muted">Tytuł w wyszukiwarce:</span> {page.title}
          </p>
        )}
        {narrow && (
          <a className="admin-jump" href="#admin-filter">
            Wybierz inną stronę
          </a>
        )}
        {page.kind === "article" && <PublishBar page={page} current={current} saving={saving} toast={toast} />}
        {page.route && page.status !== "unpublished" && page.status !== "scheduled" && (
          <a href={page.route} target="_blank" rel="noopener">
            Zobacz stronę
          </a>
        )}
        <button
          type="button"
          className="btn btn-secondary btn-small"
          onClick={() => pagesStore.dispatch({ type: "history", open: !showHistory })}
          aria-expanded={showHistory}
        >
          Historia zmian
        </button>
      </div>
      <DraftOffers page={page} draft={state.offered[page.id]} serverDraft={state.serverDrafts[page.id]} />
      {showHistory && (
        <History
          doc={page.id}
          version={page.version}
          previewable
          onRestored={() => {
            forget(page.id);
            return loadPages(toast);
          }}
          toast={toast}
        />
      )}
      {conflict && conflict.id === page.id && (
        <Conflict
          mine={current.sections}
          theirs={conflict.content.sections}
          busy={saving}
          onKeepMine={() => void save(page, current, toast, conflict.version)}
          onTakeTheirs={() => takeTheirs(conflict, toast)}
        />
      )}
      {page.kind === "article" && !current.settings.image && (
        <NoPicture
          page={page}
          pictures={state.pictures}
          drawings={state.drawings}
          onPick={(image) => change({ ...current, settings: { ...current.settings, image } })}
        />
      )}
      <FieldsForm
        id={page.id}
        fields={page.fields}
        settings={current.settings}
        onChange={(settings) => change({ ...current, settings })}
        problem={outcome && !outcome.ok ? (outcome.place ?? null) : null}
      />
      <SettingsForm
        key={page.id}
        open={page.status === "unpublished"}
        id={page.id}
        kind={page.kind}
        settings={current.settings}
        pictures={state.pictures}
        authors={state.authors}
        onChange={(settings) => change({ ...current, settings })}
      />
      <Editor
        sections={current.sections}
        onChange={(sections) => change({ ...current, sections })}
        onSave={() => void save(page, current, toast)}
        saving={saving}
        dirty={page.id in state.edits}
        onInsertImage={onInsertImage}
        problem={problem}
        pages={links}
        actions={
          <>
            <button
              type="button"
              className="btn btn-secondary"
              onClick={() => openPreview(page.id, current.sections, current.settings)}
            >
              Podgląd<span className="visually-hidden"> (otwiera się w nowej karcie)</span>
            </button>
            <button type="button" className="btn btn-secondary" onClick={() => void saveOnServer(page, current, toast)}>
              Zapisz jako szkic
            </button>
            {page.kind === "article" && (
              <button
                type="button"
                className="btn btn-secondary btn-danger"
                onClick={() => void removeArticle(page, toast).then((gone) => gone && onDeleted())}
              >
                Usuń artykuł
              </button>
            )}
          </>
        }
        message={<SaveMessage outcome={outcome} />}
      />
    </section>
  );
}
