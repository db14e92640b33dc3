// Generated from the sidecar's Rust types by `make api-types` (sidecar/src/api/types.rs): do not edit.

export type Section = { type: string, content: string, };

/**
 * The kinds of Markdown documents under `content/`.
 */
export type Kind = "page" | "service" | "article" | "team";

/**
 * Whether an article is on the site.
 */
export type Status = "published" | "scheduled" | "unpublished";

/**
 * One text of the front matter that the panel edits as a field.
 */
export type TextField = { 
/**
 * The name of its value in the panel's settings.
 */
name: string, 
/**
 * The field's label in the panel.
 */
label: string, 
/**
 * What the field is for, under it in the panel.
 */
hint: string, max: number, required: boolean, };

/**
 * The front-matter fields of a document that the panel edits: title, meta description,
 * hero image and its alternative text; for articles also the date, the excerpt, and
 * whether it is listed, featured and published.
 */
export type Settings = { title: string, description: string, 
/**
 * A file under `content/images/`, a full address, a `photo-…` id, or empty.
 */
image: string, imageAlt: string, 
/**
 * The point of the image a crop keeps in view (`"50% 30%"`), or empty for the middle.
 */
imageFocus: string, date?: string, excerpt?: string, 
/**
 * Who wrote an article: the name it is signed with.
 */
author?: string, listed?: boolean, featured?: boolean, published?: boolean, 
/**
 * The visible texts of [`content::fields`] the document has (and only those).
 */
heading?: string, subtitle?: string, prompt?: string, intro?: string, cardTitle?: string, cardDescription?: string, buttonLabel?: string, };

export type EditableContent = { sections: Array<Section>, };

/**
 * One editable document, as the panel sees it.
 */
export type Editable = { 
/**
 * `folder/slug`, for example `blog/terapia-cbt`.
 */
id: string, 
/**
 * Pages, services and articles: team profiles are edited in 'Zespół' ([`crate::team`]).
 */
kind: Exclude<Kind, "team">, 
/**
 * The heading of its group of tabs in the panel ("Strony", "Usługi", "Artykuły").
 */
group: string, 
/**
 * Where the document is shown on the public site.
 */
route: string | null, title: string, content: EditableContent, 
/**
 * The front-matter fields the panel edits beside the sections.
 */
settings: Settings, 
/**
 * The visible texts of its front matter, as the panel shows them: each one's value is
 * the setting of its `name`.
 */
fields: Array<TextField>, 
/**
 * Whether an article is on the site now (pages and services always are).
 */
status?: Status, 
/**
 * Changes whenever the file changes, whoever changed it.
 */
version: string, };

/**
 * One row of the price list as the panel edits it.
 */
export type PriceRow = { 
/**
 * What texts name the row by (`{{ cena.<id> }}`); empty for a new row, which gets one
 * made from its name when saved.
 */
id: string, name: string, 
/**
 * Złoty; 0 is free of charge.
 */
price: number, 
/**
 * The price is a lower bound ("od 500 zł").
 */
from: boolean, duration: string, 
/**
 * The service page the row links to (`/uslugi/…`).
 */
link: string, note: string, 
/**
 * The row's index in the file as it was read, so that an unchanged row keeps its lines
 * (and its comments) wherever it is moved; `None` for a new row.
 */
origin: number | null, };

/**
 * A fact of `site.yaml` that is the practice's own and may still be example data: the
 * identity, the contact facts, the site's address, the profiles and booking pages, and the
 * telephony account's id (the analytics tag is the operator's `ANALYTICS_ID`, not a fact). A production start publishes nothing while
 * any is listed in `example_data` (the sidecar's `serve::launch`).
 */
export type ExampleFact = "name" | "legal_name" | "nip" | "regon" | "registered_address" | "address" | "phone" | "email" | "site_url" | "social" | "booking" | "telephony";

/**
 * A service a price row may link to (or the contact section, [`CONTACT_LINK`]).
 */
export type ServiceLink = { route: string, title: string, };

/**
 * The price list, with the services its rows may link to.
 */
export type Prices = { items: Array<PriceRow>, services: Array<ServiceLink>, version: string, 
/**
 * Where each row's price appears: by row id, the documents whose texts name it
 * (`pages/cennik`), as the live site has them.
 */
uses: { [key in string]: Array<string> }, };

export type Hours = { 
/**
 * English day names, as schema.org writes them.
 */
days: Array<string>, opens: string, closes: string, };

/**
 * Days off from `from` to `until`, both included.
 */
export type ClosureFacts = { from: string, until: string, };

export type NoticeFacts = { text: string, from: string, until: string, };

/**
 * A profile of the practice in a social network, linked from the footer.
 */
export type SocialLink = { name: string, url: string, };

/**
 * The facts of `site.yaml` the panel edits.
 */
export type PracticeFacts = { phone: string, email: string, street: string, postalCode: string, city: string, openingHours: Array<Hours>, 
/**
 * The practice's own days off besides the public holidays (`YYYY-MM-DD`).
 */
closures: Array<ClosureFacts>, bookingUrl: string, 
/**
 * What the footer says of the practice, on every page.
 */
description: string, 
/**
 * The practice's profiles in social networks, in the footer's order.
 */
social: Array<SocialLink>, 
/**
 * Each therapist's booking page, by the slug of their profile.
 */
therapistBooking: { [key in string]: string }, notice: NoticeFacts | null, 
/**
 * The legal identity (the privacy policy's controller, the terms' provider).
 */
legalName: string, nip: string, regon: string, registeredStreet: string, registeredPostalCode: string, registeredCity: string, 
/**
 * Where people write about their personal data; empty: the e-mail above.
 */
dataProtectionContact: string, 
/**
 * The facts still marked as example data: one leaves the list only when the panel
 * sends it without (after the owner confirmed the value is the practice's own).
 */
exampleData: Array<ExampleFact>, };

/**
 * A fact still marked as example data, in the panel's words, and whether 'Dane gabinetu'
 * edits it; the others are set in `site.yaml` by the operator or an editor.
 */
export type ExampleLabel = { label: string, inPanel: boolean, };

/**
 * The facts with the version of `site.yaml` they were read from.
 */
export type FactsEditable = { facts: PracticeFacts, 
/**
 * The therapists, by slug, with their names, for the labels of their booking links.
 */
therapists: { [key in string]: string }, 
/**
 * The facts `site.yaml` marks as example data (`example_data`), by their Polish names:
 * the panel says they are not yet the practice's own, and who changes each.
 */
exampleData: Array<ExampleLabel>, version: string, };

/**
 * The site's own words as the panel edits them.
 */
export type WordsEditable = { 
/**
 * The texts of `napisy.yaml`, by key.
 */
values: { [key in string]: string }, 
/**
 * Which texts there are, in the panel's order (the SPEC's own among them, fixed).
 */
table: Array<Wording>, version: string, };

/**
 * One text of the table.
 */
export type Wording = { key: string, 
/**
 * The heading of its group in the panel.
 */
group: string, label: string, 
/**
 * Where visitors read it, under the field in the panel.
 */
hint: string, max: number, 
/**
 * Markdown of one paragraph (links, `{{ telefon }}`), not plain text.
 */
markdown: boolean, 
/**
 * The SPEC's own words: shown in the panel, never edited, not in the file.
 */
fixed: string | null, };

/**
 * A document's save: its sections, its settings, and the version it was loaded at.
 */
export type SaveBody = { content: EditableContent, 
/**
 * The front-matter fields beside the sections; without them only sections change.
 */
settings?: Settings, version: string, };

/**
 * The version a change (a deletion, a restore) was asked for at.
 */
export type VersionBody = { version: string, };

/**
 * What a change of the panel answers: the file's new version (empty for a deleted one),
 * what went wrong beside it (a git commit, the last run of the CDN's commands), how long
 * the build and publish took, and the document as it is now (for a page, a service or an
 * article that is still there).
 */
export type Changed = { version: string, warning: string | null, publishMs: number, page: Editable | null, 
/**
 * Where the CDN's commands are: the panel waits for the run this change queued.
 */
publishing: PublishingStatus, 
/**
 * Whether visitors see the change: `false` while a production start holds the site back
 * because its facts are example data (`warning` says which).
 */
published: boolean, };

/**
 * Where the queue is: what the panel is told after a save.
 */
export type PublishingStatus = { 
/**
 * A run is waiting or under way.
 */
pending: boolean, 
/**
 * Why the last run failed, in Polish; `None` after a run that succeeded.
 */
failure: string | null, 
/**
 * Runs finished since start, successful or not.
 */
runs: number, };

/**
 * What the panel edits of a therapist.
 */
export type Profile = { name: string, role: string, 
/**
 * A picture under `content/images/`.
 */
photo: string, photoAlt: string, 
/**
 * The point of the photo a crop keeps in view (`"50% 30%"`), or empty for the middle.
 */
imageFocus: string, qualifications: Array<string>, 
/**
 * The text under the name: Markdown.
 */
body: string, };

/**
 * A therapist as the panel lists them, in the order the site shows them.
 */
export type TeamMember = { 
/**
 * The file's name under `content/team/`, also the profile's anchor on `/o-mnie`.
 */
slug: string, order: number, profile: Profile, version: string, 
/**
 * Whether a new article is signed by this person unless another author is chosen
 * (`default_author` of `site.yaml`); set by the server that lists the team.
 */
defaultAuthor: boolean, };

/**
 * A profile's save: the profile and the version it was loaded at.
 */
export type ProfileBody = { profile: Profile, version: string, };

/**
 * A new therapist.
 */
export type NewProfile = { profile: Profile, };

export type OrderItem = { slug: string, version: string, };

/**
 * The team's new order: each profile's slug with the version it was loaded at, first first.
 */
export type OrderBody = { order: Array<OrderItem>, };

/**
 * What a change of the team answers: the change and the team as it is now.
 */
export type TeamChanged = { team: Array<TeamMember>, 
/**
 * The profile the change was about.
 */
slug: string, version: string, warning: string | null, publishMs: number, page: Editable | null, 
/**
 * Where the CDN's commands are: the panel waits for the run this change queued.
 */
publishing: PublishingStatus, 
/**
 * Whether visitors see the change: `false` while a production start holds the site back
 * because its facts are example data (`warning` says which).
 */
published: boolean, };

/**
 * A new article: its title, and the address chosen in the panel.
 */
export type NewArticle = { title: string, 
/**
 * The slug chosen in the panel; the title's folded slug without one.
 */
slug?: string, 
/**
 * Who signs it, as chosen in the panel; the first of the team without one.
 */
author?: string, };

/**
 * The address a title gives a new article, and whether it is in use.
 */
export type SlugProposal = { slug: string, route: string | null, taken: boolean, };

/**
 * What creating an article answers: the change, and the new article's id and address.
 */
export type ArticleCreated = { id: string, route: string | null, version: string, warning: string | null, publishMs: number, page: Editable | null, 
/**
 * Where the CDN's commands are: the panel waits for the run this change queued.
 */
publishing: PublishingStatus, 
/**
 * Whether visitors see the change: `false` while a production start holds the site back
 * because its facts are example data (`warning` says which).
 */
published: boolean, };

/**
 * A deleted article, as the panel lists it.
 */
export type DeletedView = { id: string, title: string, deletedAt: number, author: string, };

/**
 * The price list as the panel saves it.
 */
export type PricesBody = { items: Array<PriceRow>, version: string, };

/**
 * The practice's facts as the panel saves them.
 */
export type FactsBody = { facts: PracticeFacts, version: string, };

/**
 * The site's own words as the panel saves them.
 */
export type WordsBody = { values: { [key in string]: string }, version: string, };

/**
 * A fact a text may name, as the panel shows it: its name, its Polish meaning and what a
 * visitor sees in its place now (plain text, not the Markdown it becomes).
 */
export type Placeholder = { name: string, label: string, shown: string, };

/**
 * What a preview and a draft carry: the sections and, optionally, the settings.
 */
export type Unsaved = { content: EditableContent, settings?: Settings, 
/**
 * The version the panel loaded (drafts keep it; previews ignore it).
 */
version?: string, };

/**
 * What a draft on the server keeps of a document: its sections and settings.
 */
export type DraftBody = { content: EditableContent, settings: Settings | null, };

/**
 * The unsaved state of a document, kept on the server until saved or discarded.
 */
export type ServerDraft = { docId: string, author: string, savedAt: number, 
/**
 * The version of the file the draft was made from.
 */
version: string, 
/**
 * What the panel sent (sections and settings), as JSON.
 */
body: DraftBody, };

/**
 * A stored revision of a document, without its text.
 */
export type Revision = { id: number, savedAt: number, author: string, action: Action, };

/**
 * What a revision did to its document.
 */
export type Action = "save" | "create" | "delete" | "restore";

/**
 * Why a message is suspected of being spam.
 */
export type SpamReason = "honeypot" | "too_fast" | "bad_token";

/**
 * A contact message as stored.
 */
export type Message = { id: number, receivedAt: number, name: string, email: string, phone: string, countryCode: string, fullPhone: string, message: string, 
/**
 * `pending`, `delivered` or `failed`.
 */
status: "pending" | "delivered" | "failed", attempts: number, lastError: string | null, deliveredAt: number | null, spam: SpamReason | null, held: boolean, };

/**
 * The inbox: the newest messages, or all of one sender's.
 */
export type MessageList = { messages: Array<Message>, };

/**
 * What an erasure removed, and what it could not: backups and the practice's mailbox.
 */
export type Erased = { 
/**
 * Messages deleted from the database.
 */
deleted: number, 
/**
 * `.eml` files deleted from the outbox folder.
 */
files: number, 
/**
 * How long backups keep the data.
 */
backups: string, 
/**
 * The reminder to delete the copy in the practice's mailbox.
 */
mailbox: string, };

/**
 * One problem of a refused change, as the panel gets it: the sentence it shows and, as data,
 * where the problem is, so the panel marks that section, row or field and says the sentence
 * there (nothing is read back out of the sentence).
 */
export type Place = { 
/**
 * The problem in Polish, with where it is ("Sekcja 2: …", "Pozycja 3, nazwa: …").
 */
text: string, 
/**
 * The file it was found in, from `content/`, when a build found it.
 */
file?: string, 
/**
 * The line of that file (from 1).
 */
line?: number, 
/**
 * The section (from 1) of the body of the document being saved.
 */
section?: number, 
/**
 * The row (from 1) of the price list being saved.
 */
row?: number, 
/**
 * The field, by the panel's name of it: a setting or a text of the page (`title`,
 * `cardTitle`), a section's `type` or `content`, a price row's `name`, `price`,
 * `duration`, `note` or `link`, a profile's `name`, `role`, `photo`, `photoAlt` or
 * `qualifications`, a new article's `title` or `slug`.
 */
field?: string, };

/**
 * What a refusal asks the panel to do, beside its Polish words.
 */
export type ErrorCode = "signed_out" | "signed_out_elsewhere" | "reauth" | "expired" | "password_changed";

/**
 * The body of every refusal: a title and a message in Polish, and a form's field errors.
 */
export type ErrorBody = { title: string, error: string, errors?: Record<string, string>, 
/**
 * What the panel must do before trying again: `reauth` (confirm who you are).
 */
code?: ErrorCode, 
/**
 * A refused change's problems, each with where it is: a section, a row or a field.
 */
problems?: Array<Place>, };

/**
 * A picture of the site as the panel lists it (`GET /api/images`) and as an upload answers.
 */
export type Picture = { file: string, url: string, 
/**
 * The alternative text given at upload, if the image came from the panel.
 */
alt: string | null, bytes: number, 
/**
 * Still waiting for its variants (a photograph just uploaded): shown as it is until then.
 */
pending: boolean, };

/**
 * Who is signed in: the administrator's e-mail, or `null` when no one is.
 */
export type SignedIn = { email: string | null, };

/**
 * The answer to a right password when the app's code is still needed.
 */
export type SecondFactorNeeded = { secondFactor: boolean, };

/**
 * Whether the app is on, how many recovery codes are left, and until when (Unix seconds,
 * 0 for never) the session counts as having confirmed who it is.
 */
export type TotpStatus = { enabled: boolean, recoveryCodesLeft: number, reauthUntil: number, };

/**
 * Recovery codes, shown once.
 */
export type RecoveryCodes = { recoveryCodes: Array<string>, };

/**
 * What the panel shows to set the app up: the address (as a QR code, an SVG) and the
 * secret to type by hand.
 */
export type Enrolment = { secret: string, uri: string, qrSvg: string, };

/**
 * A session as the panel lists it.
 */
export type SessionInfo = { 
/**
 * The start of the token's hash: names the session without giving it away.
 */
id: string, createdAt: number, lastSeenAt: number, 
/**
 * The address the session signed in from, as it is (no geolocation).
 */
client: string, agent: string, 
/**
 * The device in words: 'Safari na iPhonie'.
 */
device: string, current: boolean, };

/**
 * How many sessions were ended.
 */
export type Ended = { ended: number, };

/**
 * A message for the person, the same whatever happened behind it.
 */
export type Notice = { message: string, };

/**
 * A passkey as the panel lists it.
 */
export type PasskeyInfo = { id: number, name: string, createdAt: number, lastUsedAt: number | null, };

/**
 * The name of a passkey just added.
 */
export type PasskeyAdded = { name: string, };

/**
 * One thing that happened.
 */
export type AuditEntry = { id: number, at: number, event: string, actor: string, client: string, detail: string, };

/**
 * Which text of a revision a version is: the one it saved, or the one it replaced.
 */
export type Side = "after" | "before";

/**
 * One version in the history: `revision`'s text on `side`.
 */
export type Version = { revision: number, side: Side, savedAt: number, author: string, action: Action, 
/**
 * What the revision changed, in the history's words ('Terapia indywidualna 190 → 200
 * zł', 'przywrócono wersję z 12.11.2026 18:03'); for the version before the first change,
 * that it is that one.
 */
summary: string, 
/**
 * The text is the file's text now.
 */
current: boolean, };

/**
 * The versions of one file, newest first.
 */
export type HistoryList = { doc: string, entries: Array<Version>, };

/**
 * One version's text beside the file's text now.
 */
export type VersionTexts = { text: string, current: string, 
/**
 * The fields that differ, by the panel's labels (what the panel compares).
 */
fields: Array<Compared>, };

/**
 * One field that differs between a version and the text now.
 */
export type Compared = { label: string, version: string, current: string, };

/**
 * An editor's commit that was not applied, and why.
 */
export type Refused = { commit: string, 
/**
 * `Name <e-mail>`: shown in the panel only, never in health.
 */
author?: string, 
/**
 * Every problem, in Polish, each with its file and line.
 */
problems: Array<string>, };

/**
 * A document both the panel and an editor changed at once: the repository keeps the
 * editor's text; the panel's is kept as a revision and a draft.
 */
export type Conflict = { docId: string, file: string, commit: string, author: string, editorText: string, panelText: string, };

/**
 * What the sync thread does with the remote, each failing and recovering on its own.
 */
export type Step = "fetch" | "apply" | "push" | "notify" | "mirror";

/**
 * A step that failed the last time it ran, and what git said.
 */
export type StepError = { step: Step, 
/**
 * In Polish, with git's own words (credentials taken out).
 */
message: string, at: number, };

export type GitStatus = { branch: string, 
/**
 * Panel commits the remote does not have yet.
 */
unpushed: number, 
/**
 * Every step that failed the last time it ran, whatever waits to be pushed; a step's
 * next success takes its error away.
 */
errors: Array<StepError>, 
/**
 * The newest of `errors` (credentials taken out of it).
 */
lastError: string | null, lastErrorAt: number | null, pushedAt: number | null, 
/**
 * The newest remote commit applied.
 */
applied: string | null, 
/**
 * An editor's commit that does not build: the last good build is served.
 */
broken: Refused | null, 
/**
 * An editor's commit that changes more than content: it waits for a deploy.
 */
needsDeploy: Refused | null, 
/**
 * The remote branch lost commits it had (a force-push): nothing is fetched until fixed.
 */
forcePush: Refused | null, 
/**
 * Documents changed on both sides at once, with both texts.
 */
conflicts: Array<Conflict>, 
/**
 * Fetches made since the start (webhooks and polls coalesce into these).
 */
fetches: number, 
/**
 * A push to the hosted repository is being checked and published: the branch and the
 * panel's saves wait for it.
 */
receiving: boolean, };

/**
 * Whether the content follows a remote, and where it stands.
 */
export type GitPanel = { enabled: boolean, status: GitStatus | null, };

/**
 * A token as the panel lists it: never the token itself.
 */
export type GitToken = { id: number, name: string, createdAt: number, lastUsedAt: number | null, };

/**
 * The tokens, and where to clone from; `clone_url` is `None` when the server does not host
 * the repository.
 */
export type GitTokens = { cloneUrl: string | null, branch: string, tokens: Array<GitToken>, };

export type NewGitToken = { name: string, };

/**
 * A token just made: the only time its text is shown.
 */
export type GitTokenCreated = { id: number, name: string, token: string, };

/**
 * How much an alert asks of the owner.
 */
export type AlertLevel = "alert" | "warning";

/**
 * Something wrong that a person should see to.
 */
export type SystemAlert = { 
/**
 * Which condition: `undelivered`, `backup`, `backups-off`, `git`, `mirror`, `disk`,
 * `scheduler` or `images`.
 */
key: string, level: AlertLevel, 
/**
 * What happened, in a few words (an e-mail's subject).
 */
title: string, 
/**
 * What it means for the practice.
 */
meaning: string, 
/**
 * What to do about it, or whom to ask.
 */
action: string, 
/**
 * The program's own words and the figures, for whoever looks after the server.
 */
details: string | null, 
/**
 * Since when (Unix seconds).
 */
since: number, };

/**
 * The outbox: messages waiting for delivery, failed ones, the oldest waiting one.
 */
export type SystemOutbox = { pending: number, failed: number, oldestPendingAt: number | null, };

/**
 * The scheduled backups, when a repository is set.
 */
export type SystemBackups = { intervalSeconds: number, lastSuccessAt: number | null, lastDurationMs: number | null, lastFailureAt: number | null, 
/**
 * restic's words of the last failure: shown only under 'Szczegóły dla informatyka'.
 */
lastError: string | null, 
/**
 * When the backup running now started.
 */
runningSince: number | null, 
/**
 * The longest one restic call may take before it is stopped.
 */
timeoutSeconds: number, };

/**
 * One line of the text format: a name, its labels and its value.
 */
export type MetricSample = { name: string, labels: Array<[string, string]>, value: number, };

/**
 * `GET /api/system`.
 */
export type SystemStatus = { now: number, alerts: Array<SystemAlert>, 
/**
 * What is not set up that should be (backups off): never "all is well" while any is.
 */
warnings: Array<SystemAlert>, outbox: SystemOutbox, 
/**
 * `null` when no backup repository is set.
 */
backups: SystemBackups | null, diskFreeBytes: number | null, diskTotalBytes: number | null, 
/**
 * What `/metrics` says, line by line.
 */
metrics: Array<MetricSample>, };

/**
 * How the counts are grouped.
 */
export type StatsPeriod = "day" | "week" | "month";

/**
 * The totals of a stretch of time.
 */
export type StatsTotals = { 
/**
 * Visitors of each day, added up (a visitor of two days counts twice).
 */
visitors: number, views: number, bookings: number, calls: number, messages: number, crisis: number, 
/**
 * /m1's 'Przejdź do strony głównej'.
 */
landing: number, };

/**
 * One day, week or month.
 */
export type StatsBucket = { 
/**
 * Its first day, `YYYY-MM-DD`.
 */
start: string, 
/**
 * How the owner names it: '3 mar', '3–9 mar', 'marzec 2026'.
 */
label: string, totals: StatsTotals, };

/**
 * One line of a list: a route, a source, a label, with how people name it.
 */
export type StatsRanked = { 
/**
 * What is counted as it is kept (a route, a host, a label).
 */
name: string, 
/**
 * Its name for the owner: a page's title, 'Wejścia bezpośrednie', '116 123'.
 */
title: string, count: number, };

/**
 * `GET /api/stats`.
 */
export type Statistics = { 
/**
 * Whether the site counts now (`STATS` is not `off`).
 */
enabled: boolean, period: StatsPeriod, 
/**
 * The first and last day shown, `YYYY-MM-DD`.
 */
from: string, to: string, 
/**
 * Oldest first.
 */
buckets: Array<StatsBucket>, 
/**
 * The one before the first, for its change.
 */
before: StatsBucket, totals: StatsTotals, 
/**
 * The totals of as long a stretch just before.
 */
previous: StatsTotals, pages: Array<StatsRanked>, articles: Array<StatsRanked>, sources: Array<StatsRanked>, devices: Array<StatsRanked>, exits: Array<StatsRanked>, bookings: Array<StatsRanked>, crisis: Array<StatsRanked>, notFound: Array<StatsRanked>, widgets: Array<StatsRanked>, retentionMonths: number, };

/**
 * One step of going live.
 */
export type LaunchStep = "facts" | "mail" | "backups" | "secondFactor" | "https";

/**
 * A step and where it stands, in the owner's words.
 */
export type LaunchItem = { step: LaunchStep, done: boolean, title: string, 
/**
 * What is done, or what is missing and who does it, in the owner's words.
 */
detail: string, 
/**
 * What the person who runs the server sets for it (the settings' names): shown under
 * 'Szczegóły dla informatyka', never in her words. Empty when there is nothing to set.
 */
technical: string, 
/**
 * For [`Step::Facts`]: the facts still listed as example data, by their Polish names.
 */
facts: Array<string>, };

/**
 * `GET /api/launch`: whether this is a production start, whether the site is published, and
 * each step of going live.
 */
export type LaunchChecklist = { production: boolean, 
/**
 * The public site answers with its pages (not 'Strona w przygotowaniu').
 */
published: boolean, items: Array<LaunchItem>, };
