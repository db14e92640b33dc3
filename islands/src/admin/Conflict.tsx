// Two people saved one page: the owner's unsaved text and the text saved meanwhile, side
// by side (one above the other on a phone), and a choice of which stays — no instructions.
import type { Section } from "./api";

function Column({ title, sections }: { title: string; sections: Section[] }) {
  return (
    <div className="conflict-column" role="region" aria-label={title} tabIndex={0}>
      <h3>{title}</h3>
      {sections.map((s, i) => (
        <div key={i} className="conflict-section">
          <p className="muted">Sekcja {i + 1}</p>
          <p className="conflict-text">{s.content}</p>
        </div>
      ))}
    </div>
  );
}

export default function Conflict({
  mine,
  theirs,
  busy,
  onKeepMine,
  onTakeTheirs,
}: {
  mine: Section[];
  theirs: Section[];
  busy: boolean;
  onKeepMine: () => void;
  onTakeTheirs: () => void;
}) {
  return (
    <section className="conflict" aria-labelledby="conflict-title">
      <h3 id="conflict-title">Ktoś zapisał tę stronę w międzyczasie</h3>
      <p>
        Ta strona została zapisana w innej karcie albo przez inną osobę, w czasie Twojej edycji. Obie wersje są poniżej.
        Wybierz, która ma zostać na stronie.
      </p>
      <div className="conflict-columns">
        <Column title="Twoja wersja (niezapisana)" sections={mine} />
        <Column title="Wersja zapisana w międzyczasie" sections={theirs} />
      </div>
      <div className="editor-actions">
        <button type="button" className="btn btn-primary" onClick={onKeepMine} disabled={busy}>
          Zapisz moją wersję
        </button>
        <button type="button" className="btn btn-secondary" onClick={onTakeTheirs} disabled={busy}>
          Weź wersję zapisaną w międzyczasie
        </button>
      </div>
    </section>
  );
}
