// The panel's own logic, without a browser: drafts kept and offered back, where a refusal's
// problem is, the facts a text names, the pages' state through its reducer, and the views'
// addresses.
import assert from "node:assert/strict";
import { before, beforeEach, describe, test } from "node:test";
import { load } from "./bundle.mjs";

/** A browser's localStorage, for the drafts. */
class Storage {
  items = new Map();
  getItem = (k) => (this.items.has(k) ? this.items.get(k) : null);
  setItem = (k, v) => void this.items.set(k, String(v));
  removeItem = (k) => void this.items.delete(k);
}

const section = (content, type = "text") => ({ type, content });
const settings = { title: "Cennik", description: "Ceny wizyt." };
const page = (id, sections, extra = {}) => ({
  id,
  kind: "page",
  group: "Strony",
  route: `/${id.split("/")[1]}`,
  title: id,
  content: { sections },
  settings,
  fields: [],
  version: "v1",
  ...extra,
});

describe("drafts", () => {
  let drafts;
  before(async () => {
    drafts = await load("admin/drafts.ts");
  });
  beforeEach(() => {
    globalThis.localStorage = new Storage();
  });

  test("a draft is kept per page, read back and dropped", () => {
    const draft = { sections: [section("Nowy tekst")], settings, version: "v1", at: 5 };
    drafts.saveDraft("pages/cennik", draft);
    assert.deepEqual(drafts.loadDraft("pages/cennik"), draft);
    assert.equal(drafts.loadDraft("pages/home"), null);
    drafts.dropDraft("pages/cennik");
    assert.equal(drafts.loadDraft("pages/cennik"), null);
  });

  test("a draft that cannot be read is no draft, and a full storage loses nothing but the draft", () => {
    localStorage.setItem("harmonia-draft:pages/home", "{nie json");
    assert.equal(drafts.loadDraft("pages/home"), null);
    localStorage.setItem = () => {
      throw new Error("QuotaExceededError");
    };
    assert.doesNotThrow(() => drafts.saveDraft("pages/home", { sections: [] }));
  });

  test("sections and settings are the same only when every type, text and setting is", () => {
    assert.ok(drafts.sameSections([section("a")], [section("a")]));
    assert.ok(!drafts.sameSections([section("a")], [section("a", "faq")]));
    assert.ok(!drafts.sameSections([section("a")], [section("a"), section("b")]));
    assert.ok(drafts.sameSettings(settings, { ...settings }));
    assert.ok(!drafts.sameSettings({ ...settings, title: "Inny" }, settings));
    // A draft kept before settings were editable has none: it differs by its sections only.
    assert.ok(drafts.sameSettings(undefined, settings));
  });
});

describe("problems", () => {
  let problems;
  before(async () => {
    problems = await load("admin/problems.ts");
  });

  test("the first problem the form can place is the one marked", () => {
    const unplaced = { text: "Strony nie da się zbudować." };
    const field = { text: "Pole „Tytuł” jest puste.", field: "title" };
    const row = { text: "Pozycja 3: brak ceny.", row: 3, field: "price" };
    assert.deepEqual(problems.placeOf([unplaced, field, row]), field);
    assert.deepEqual(problems.placeOf([unplaced, row]), row);
    assert.equal(problems.placeOf([unplaced]), null);
    assert.equal(problems.placeOf(undefined), null);
    assert.deepEqual(problems.placeOf([{ text: "Sekcja 1", section: 1 }]), { text: "Sekcja 1", section: 1 });
  });
});

describe("the facts' fields a refusal names", () => {
  let fields;
  before(async () => {
    fields = await load("admin/factFields.ts");
  });

  test("by the form's name or the file's key, each is a field of 'Dane gabinetu'", () => {
    const id = (field, row) => fields.factFieldId({ field, row });
    assert.equal(id("legalName"), "fact-legal-name");
    assert.equal(id("registeredPostalCode"), "fact-registered-postal");
    assert.equal(id("postal_code"), "fact-postal");
    assert.equal(id("postalCode"), "fact-postal");
    assert.equal(id("data_protection_contact"), "fact-data-protection");
    assert.equal(id("bookingUrl"), "fact-booking");
    assert.equal(id("opening_hours", 2), "hours-1-opens");
    assert.equal(id("social"), "social-0-url");
    assert.equal(id("nie_ma_takiego"), null);
    assert.equal(fields.factFieldId(null), null);
  });
});

describe("the sections' names in the navigator", () => {
  let names;
  before(async () => {
    names = await load("admin/sectionNames.ts");
  });

  test("a section is named by its number, its type and the first words a visitor reads", () => {
    const name = (content, type = "text", i = 0) => names.sectionName({ type, content }, i);
    assert.equal(name("## Numery **pomocy**\n\nTekst."), "Sekcja 1 · Tekst: Numery pomocy");
    assert.equal(
      name("\n\nZadzwoń: [116 123](tel:116123) albo {{ telefon }}", "callout", 2),
      "Sekcja 3 · Ramka wyróżniona: Zadzwoń: 116 123 albo telefon",
    );
    assert.equal(name("![Gabinet w słońcu](/images/gabinet.jpg)"), "Sekcja 1 · Tekst: Gabinet w słońcu");
    assert.equal(name("- pierwszy punkt"), "Sekcja 1 · Tekst: pierwszy punkt");
    assert.equal(name("", "nieznany"), "Sekcja 1 · Tekst: (pusta)");
    const long = name("Ą".repeat(80));
    assert.equal(long, `Sekcja 1 · Tekst: ${"Ą".repeat(names.FIRST_WORDS)}…`);
  });
});

describe("placeholders", () => {
  let edits;
  let placeholders;
  before(async () => {
    edits = await load("admin/markdownEdits.ts");
    placeholders = await load("admin/placeholders.ts");
  });

  test("the facts a text names are found once each, in order, however they are spaced", () => {
    const text = "Zadzwoń: {{ telefon }} lub {{telefon}}, adres {{  adres }}, cena {{ cena.konsultacja }}.";
    assert.deepEqual(edits.placeholdersIn(text), ["telefon", "adres", "cena.konsultacja"]);
    assert.deepEqual(edits.placeholdersIn("{{ }} {{ 1 }} { telefon }"), []);
  });

  test("a fact reads as its Polish name in brackets", () => {
    assert.equal(placeholders.chipText("telefon gabinetu"), "[telefon gabinetu]");
  });
});

describe("the pages' state", () => {
  let state;
  const home = page("pages/home", [section("Witaj")]);
  const prices = page("pages/cennik", [section("Ceny")]);
  before(async () => {
    state = await load("admin/pages/state.ts");
  });
  const loaded = () =>
    state.reduce(state.EMPTY, {
      type: "loaded",
      pages: [home, prices],
      drafts: {
        "pages/home": { sections: [section("Witaj")], settings, version: "v1", at: 1 },
        "pages/cennik": { sections: [section("Nowe ceny")], settings, version: "v1", at: 2 },
      },
    });

  test("the drafts kept on the server come with the pages, in the same state", () => {
    const draft = { docId: "pages/cennik", author: "Magda", savedAt: 5, sections: [section("Szkic")], settings };
    const first = state.reduce(state.EMPTY, {
      type: "loaded",
      pages: [home, prices],
      drafts: {},
      serverDrafts: [draft],
    });
    assert.equal(first.loaded, true);
    assert.deepEqual(Object.keys(first.serverDrafts), ["pages/cennik"]);
    // A load whose drafts could not be had keeps the ones known.
    const again = state.reduce(first, { type: "loaded", pages: [home, prices], drafts: {} });
    assert.deepEqual(Object.keys(again.serverDrafts), ["pages/cennik"]);
  });

  test("only a draft that differs from its page is offered back", () => {
    assert.deepEqual(Object.keys(loaded().offered), ["pages/cennik"]);
  });

  test("an edit is kept until it is typed back to the saved text", () => {
    const edited = state.reduce(loaded(), {
      type: "edited",
      id: "pages/home",
      edit: { sections: [section("Witajcie")], settings },
    });
    assert.deepEqual(Object.keys(edited.edits), ["pages/home"]);
    const back = state.reduce(edited, { type: "edited", id: "pages/home", edit: state.saved(home) });
    assert.deepEqual(back.edits, {});
  });

  test("a save replaces the page, forgets its edit and drafts and says how it ended", () => {
    let s = state.reduce(loaded(), {
      type: "edited",
      id: "pages/cennik",
      edit: { sections: [section("X")], settings },
    });
    s = state.reduce(s, { type: "saving" });
    assert.equal(s.saving, true);
    const after = { ...prices, content: { sections: [section("X")] }, version: "v2" };
    s = state.reduce(s, { type: "saved", page: after, outcome: { ok: true, text: "Zapisano" } });
    assert.equal(s.saving, false);
    assert.deepEqual(s.edits, {});
    assert.deepEqual(s.offered, {});
    assert.equal(s.pages.find((p) => p.id === "pages/cennik").version, "v2");
    assert.equal(s.outcome.text, "Zapisano");
  });

  test("a refusal keeps the edit, marks the section it names and holds the conflict", () => {
    let s = state.reduce(loaded(), { type: "edited", id: "pages/home", edit: { sections: [section("X")], settings } });
    const place = { text: "Sekcja 1: …", section: 1 };
    s = state.reduce(s, { type: "refused", outcome: { ok: false, text: "Błąd", place }, conflict: home });
    assert.deepEqual(Object.keys(s.edits), ["pages/home"]);
    assert.deepEqual(s.problem, place);
    assert.equal(s.conflict, home);
    const field = state.reduce(s, {
      type: "refused",
      outcome: { ok: false, text: "Błąd", place: { text: "t", field: "title" } },
    });
    assert.equal(field.problem, null);
    assert.equal(state.reduce(field, { type: "opened", id: null }).outcome, null);
  });

  test("a route opens the page it names, or the home page", () => {
    assert.equal(state.openPage([prices, home], "pages/cennik").id, "pages/cennik");
    assert.equal(state.openPage([prices, { ...home, route: "/" }], "blog/nie-ma").id, "pages/home");
    assert.equal(state.openPage([], null), undefined);
  });
});

describe("the views' addresses", () => {
  let routes;
  before(async () => {
    routes = await load("admin/app/routes.ts");
  });

  test("every view has an address that reads back as itself", () => {
    for (const view of Object.keys(routes.PATHS)) {
      const route = { view, doc: null };
      assert.deepEqual(routes.parseRoute(routes.routeHash(route)), route);
    }
    const article = { view: "pages", doc: "blog/terapia-cbt" };
    assert.equal(routes.routeHash(article), "#/strony/blog/terapia-cbt");
    assert.deepEqual(routes.parseRoute("#/strony/blog/terapia-cbt"), article);
  });

  test("no hash is the home page; a hash that names no view is no route", () => {
    assert.deepEqual(routes.parseRoute(""), routes.HOME);
    assert.equal(routes.parseRoute("#main"), null);
    assert.equal(routes.parseRoute("#/nie-ma-takiego-widoku"), null);
  });
});

describe("a form's save", () => {
  let saving;
  before(async () => {
    saving = await load("admin/saving.ts");
  });

  test("says 'saved' only once the form holds what the server has", async () => {
    const said = [];
    let reloaded = false;
    const outcome = await saving.saveForm(
      (kind, message) => said.push({ kind, text: message.text, reloaded }),
      { phone: "+48 600 000 001" },
      async () => ({ warning: null, publishing: { pending: false, failure: null }, published: true }),
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        reloaded = true;
      },
    );
    assert.equal(outcome.ok, true);
    assert.deepEqual(said, [{ kind: "success", text: saving.SAVED.text, reloaded: true }]);
  });

  test("a save that fails keeps the form as she typed it: no reload, one message", async () => {
    const said = [];
    let reloads = 0;
    const outcome = await saving.saveForm(
      (kind, message) => said.push({ kind, text: message.text }),
      { phone: "+48 600 000 001" },
      async () => {
        throw new Error("the server answered 500");
      },
      async () => void (reloads += 1),
    );
    assert.equal(outcome.ok, false);
    assert.deepEqual(said, [{ kind: "error", text: outcome.text }]);
    assert.equal(reloads, 0);
  });
});

describe("a form's reload after its save", () => {
  let saving;
  before(async () => {
    saving = await load("admin/saving.ts");
  });

  test("takes the server's value where the form still holds what it sent, and keeps what was typed since", () => {
    const sent = { phone: "+48 600 000 001" };
    const server = { phone: "+48 600 000 001", version: "v2" };
    assert.equal(saving.fromServer(server, sent)(sent), server, "nothing typed since: the server's");
    const typed = { phone: "+48 600 000 002" };
    assert.equal(saving.fromServer(server, sent)(typed), typed, "typed while saving: kept");
    assert.equal(saving.fromServer(server)(typed), server, "a load: always the server's");
  });

  test("gives a new row edited while its save was on its way the id that save gave it", () => {
    const kept = { id: "terapia", name: "Terapia", price: 200 };
    const sent = [kept, { id: "", name: "Nowa", price: 190 }];
    const server = [kept, { id: "nowa", name: "Nowa", price: 190 }];
    assert.equal(saving.rowsFromServer(server, sent)(sent), server, "nothing typed since: the server's");
    const typed = [kept, { id: "", name: "Nowa usługa", price: 210 }];
    assert.deepEqual(saving.rowsFromServer(server, sent)(typed), [
      kept,
      { id: "nowa", name: "Nowa usługa", price: 210 },
    ]);
    const added = [...typed, { id: "", name: "", price: 190 }];
    assert.equal(saving.rowsFromServer(server, sent)(added), added, "a row added meanwhile: left as typed");
    const moved = [typed[1], kept];
    assert.equal(saving.rowsFromServer(server, sent)(moved), moved, "rows moved meanwhile: left as typed");
  });
});
